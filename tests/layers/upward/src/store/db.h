// The store, which the CLI may not include.
#pragma once
