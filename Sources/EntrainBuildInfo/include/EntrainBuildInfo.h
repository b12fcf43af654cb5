#ifndef ENTRAIN_BUILD_INFO_H
#define ENTRAIN_BUILD_INFO_H

/// The git commit this binary was built from ("1a2b3c4d5e6f", "…-dirty" with uncommitted
/// changes), or "" when the build had no commit stamp (see BuildInfo.c).
const char *entrain_build_commit(void);

#endif
