#!/usr/bin/env bash
# Install Debian's HIP toolchain (hipcc, HIP runtime headers, ROCm device libraries) so that the
# arena can compile .hip sources for AMD GPUs (gfx90a) on a machine without one: the CPU
# compile-only gate of agentkernelarena.native. Idempotent: does nothing when hipcc already
# compiles a trivial HIP kernel for gfx90a.
#
# About 370 MB with --no-install-recommends (clang 15, ROCm 5.2.3 headers and device libraries).
# Needs root (or sudo) and a Debian/Ubuntu apt.
set -euo pipefail

ARCH="${AKA_HIP_ARCH:-gfx90a}"

hipcc_works() {
    command -v hipcc >/dev/null 2>&1 || return 1
    local tmp status=0
    tmp="$(mktemp -d)"
    printf '#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n' \
        > "$tmp/k.hip"
    # With /usr/local/cuda present hipcc would default to the nvidia platform.
    HIP_PLATFORM=amd hipcc --offload-arch="$ARCH" -c "$tmp/k.hip" -o "$tmp/k.o" >/dev/null 2>&1 \
        || status=$?
    rm -rf "$tmp"
    return "$status"
}

if hipcc_works; then
    echo "hipcc already works for $ARCH: $(command -v hipcc)"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-hip-toolchain: need root or sudo to run apt-get" >&2
        exit 1
    fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-hip-toolchain: apt-get not found; install hipcc, libamdhip64-dev and" \
        "rocm-device-libs with your distribution's package manager" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends hipcc libamdhip64-dev rocm-device-libs

if hipcc_works; then
    echo "hipcc installed and works for $ARCH: $(command -v hipcc)"
else
    echo "install-hip-toolchain: hipcc installed but cannot compile for $ARCH" >&2
    exit 1
fi
