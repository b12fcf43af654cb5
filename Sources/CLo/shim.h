#ifndef ENTRAIN_CLO_SHIM_H
#define ENTRAIN_CLO_SHIM_H
// liblo's codec (lo_message_deserialise / lo_message_serialise); entrain owns its sockets.
#include <lo/lo.h>
#include <lo/lo_lowlevel.h>
#endif
