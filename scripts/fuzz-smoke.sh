#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Short bounded fuzzing of every reader (20 s each unless SECONDS is given); fails on any crash,
# timeout or memory over 512 MB. For scripts/test.sh. Usage: scripts/fuzz-smoke.sh [SECONDS] [TARGET...]
exec "$(dirname "$0")/fuzz.sh" --smoke "$@"
