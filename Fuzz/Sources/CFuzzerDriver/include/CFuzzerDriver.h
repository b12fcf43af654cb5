#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs with a main of their own: SwiftPM links an executable's
// main to the module's renamed entry point, so the fuzzer's driver is started from there.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
