#include "generation/simulated/simulated_model_server.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace codebias::serve {

BiasProfile load_bias_profile(const std::filesystem::path& file) {
  if (file.empty()) return default_bias_profile();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot read the bias profile");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_bias_profile(text.str(), file.string());
}

Handler simulated_model_handler(const SimulatedModel& model) {
  return [&model](const HttpRequest& request) {
    const std::string path = request.target.substr(0, request.target.find('?'));
    const auto reply = model.handle(request.method, path, request.body);
    HttpResponse response;
    response.status = reply.status;
    response.body = reply.body;
    return response;
  };
}

}  // namespace codebias::serve
