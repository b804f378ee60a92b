#pragma once
#include "analysis/ir/ir.h"
