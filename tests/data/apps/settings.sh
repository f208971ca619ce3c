#!/bin/sh
# An application for tests/test_apps.c: tests/cuda/vadd's program, then a line naming the
# settings the model was given (GPUSIM_SET), so that its output differs between mechanisms --
# the difference the page must report as a wrong result.
"$(dirname "$0")/../../cuda/vadd/app" || exit 1
echo "settings: $(echo "$GPUSIM_SET" | tr '\n' ' ')"
