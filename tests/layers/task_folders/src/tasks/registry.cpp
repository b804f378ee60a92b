#include "tasks/alpha/alpha_metrics.h"
#include "tasks/beta/beta_report.h"
