#!/usr/bin/env bash
# Exit 0 if the JACK server named by $JACK_DEFAULT_SERVER (or the default one) is running.
# Never starts one. (jack_wait -c always exits 0, so read what it says.)
[ "$(JACK_NO_START_SERVER=1 jack_wait -c 2>/dev/null)" = "running" ]
