// The one home of the numeric API's float and double instances (see attention/instances.hpp).
#define ATTENTION_DEFINE_INSTANCES
#include "attention/instances.hpp"

namespace attention {
ATTENTION_NUMERIC_API(template, float)
ATTENTION_NUMERIC_API(template, double)
} // namespace attention
