// Reaches the store without run/.
#include "store/db.h"
