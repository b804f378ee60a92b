#pragma once
#include "analysis/decisions/eval.h"
