#include "EntrainBuildInfo.h"

// `make` stamps the commit into build-commit.h (untracked, rewritten only when the commit
// changes, so only this file recompiles); `make dist` puts it in the source tarball, which has
// no .git. A plain `swift build` without it still builds and names no commit.
#if __has_include("build-commit.h")
#include "build-commit.h"
#endif
#ifndef ENTRAIN_BUILD_COMMIT
#define ENTRAIN_BUILD_COMMIT ""
#endif

const char *entrain_build_commit(void) { return ENTRAIN_BUILD_COMMIT; }
