#pragma once
#include "base/leaf.h"
