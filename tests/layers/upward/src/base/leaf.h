// Includes a later layer: the checker must name this line.
#include "run/top.h"
