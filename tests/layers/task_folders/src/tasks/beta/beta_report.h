#pragma once
#include "tasks/alpha/alpha_metrics.h"
