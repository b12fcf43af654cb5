#!/usr/bin/env bash
# The live tests that cover what a server changes (ports, sound, OSC, latency, quantum changes,
# MIDI, transport, server loss and return), run again on PipeWire's JACK: under pw-jack (this
# process and the entrain binary load PipeWire's libjack) each test's server is a private headless
# PipeWire (Tests/TestSupport/PipeWireDaemon.swift) instead of jackd. Arguments: the test command
# to run (`swift test --skip-build`, as make test gives it); ENTRAIN_BINARY as for the main run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v pw-jack >/dev/null || { echo "test-pipewire: pw-jack is missing (scripts/install-deps.sh installs pipewire-jack)" >&2; exit 1; }

subset=(
  'PipeWireLiveTests'
  'ClientPortsTests/testDocumentedPortsAndMetadata'
  'LiveAudioTests/testRecordingContainsTheExpectedFrequencies'
  'OSCLiveTests/testOscsendChangesWhatPlaysAndQueriesAnswer'
  'OSCLiveTests/testTimeTaggedBundlesLandOnTheirSamples'
  'GraphChangeTests'
  'MIDILiveTests/testDrumsAt120BPMGiveFortyEightClocksASecondAndNotesOnTheBeatFrames'
  'TransportLiveTests/testTheMIDIClockFollowsJackTransportsTempoAndItsStartAndStop'
)
filter=$(printf 'IntegrationTests.%s,' "${subset[@]}")
echo "test-pipewire: $(pw-jack true 2>/dev/null; pipewire --version | grep -o 'libpipewire [0-9.]*'); ${#subset[@]} groups of live tests"
TEST_FILTER=${filter%,} exec "$here/test.sh" pw-jack env ENTRAIN_TEST_SERVER=pipewire
