// `codebias serve-model`: the built-in simulated model as an OpenAI-compatible server.
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "tasks/task.h"
#include "generation/simulated/simulated_model_server.h"

namespace codebias::cli {
namespace {

struct ServeArgs {
  std::string host = "127.0.0.1";
  int port = 8000;
  std::string profile;
  int latency_ms = 0;
};

int serve_model(const ServeArgs& args) {
  const serve::SimulatedModel model(serve::load_bias_profile(args.profile), tasks::simulated_answerers());
  serve::Handler handler = serve::simulated_model_handler(model);
  if (args.latency_ms > 0) {
    // Each answer leaves after the latency, as a real model's would, without holding up the others.
    handler = [answer = std::move(handler), latency = std::chrono::milliseconds(args.latency_ms)](const serve::HttpRequest& request) {
      serve::HttpResponse response = answer(request);
      response.delay = latency;
      return response;
    };
  }
  serve::HttpServer server(std::move(handler), args.host, static_cast<std::uint16_t>(args.port));
  // HttpServer::stop is not async-signal-safe: block the signals (the server thread inherits the
  // mask) and wait for them here instead of in a handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  server.start();
  std::cerr << "codebias serve-model: simulated model listening on " << server.base_url()
            << " (OpenAI-compatible: /v1/chat/completions, /v1/completions, /v1/models); Ctrl-C stops\n";
  int received = 0;
  sigwait(&stop_signals, &received);
  server.stop();
  return 0;
}

}  // namespace

Command add_serve_model_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "serve-model", "Serve the built-in simulated model (planted, documented bias) over an OpenAI-compatible API.");
  auto args = std::make_shared<ServeArgs>();
  app->add_option("--host", args->host, "Address to listen on")->capture_default_str();
  app->add_option("--port", args->port, "Port (0: any free port)")->capture_default_str()->check(CLI::Range(0, 65535));
  app->add_option("--profile", args->profile, "Bias profile JSON (default: the built-in profile, docs/simulated-model.md)");
  app->add_option("--latency-ms", args->latency_ms,
                  "Answer each request after this many milliseconds, like a real model (benchmarks; default 0)")
      ->check(CLI::Range(0, 600000));
  return {app, [args] { return serve_model(*args); }};
}

}  // namespace codebias::cli
