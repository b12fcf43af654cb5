// lilv and the LV2 extension headers the host provides features for. No code of ours: lilv is
// a plain C API Swift calls directly.
#include <lilv/lilv.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>
#include <lv2/options/options.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/atom/atom.h>
#include <lv2/parameters/parameters.h>
#include <lv2/port-props/port-props.h>
#include <lv2/units/units.h>
#include <lv2/worker/worker.h>
#include <lv2/state/state.h>
