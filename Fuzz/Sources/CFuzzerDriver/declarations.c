// Declarations only: LLVMFuzzerRunDriver is defined in the fuzzer runtime -sanitize=fuzzer links.
#include "CFuzzerDriver.h"
