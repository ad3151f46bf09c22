#!/bin/sh
# run_bundle.sh [VENDOR_LIBRARY] -- runs the CLML tests, the seed sample (plain and through the
# loader layer) and bench_clml from a bundle made by make_gpu_bundle.sh. VENDOR_LIBRARY is the
# OpenCL driver the carried ICD loader should use (default libnvidia-opencl.so.1).
set -u
here=$(cd "$(dirname "$0")" && pwd)
vendor=${1:-libnvidia-opencl.so.1}
mkdir -p /tmp/clml-icd
echo "$vendor" > /tmp/clml-icd/vendor.icd
export OCL_ICD_VENDORS=/tmp/clml-icd
export LD_LIBRARY_PATH="$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0
"$here"/clml_tests || status=1
"$here"/clml_seed_sample || status=1
OPENCL_LAYERS="$here"/libtessera_clml_layer.so "$here"/clml_seed_sample --require-extension || status=1
[ -x "$here"/bench_clml ] && "$here"/bench_clml
exit $status
