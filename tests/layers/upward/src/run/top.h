// The later layer.
#pragma once
