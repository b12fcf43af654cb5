#ifndef ENTRAIN_CFFTW_SHIM_H
#define ENTRAIN_CFFTW_SHIM_H
#include <fftw3.h>
#endif
