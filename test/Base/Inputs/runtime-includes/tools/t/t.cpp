// A tool of the fixture: one public include, three internal ones.
#include "../../runtime/isa/Sim.h"
#include "Sim.h"
#include "hk/Runtime/hkrt.h"
#include "isa/Sim.h"
#include <vector>
