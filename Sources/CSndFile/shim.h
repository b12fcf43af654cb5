#ifndef ENTRAIN_CSNDFILE_SHIM_H
#define ENTRAIN_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
