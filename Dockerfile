# HK-MLIR on a clean Debian bookworm: the same set-up script and test command
# that CI runs.
#   docker build -t hk-mlir .
#   docker run --rm hk-mlir make run
FROM debian:bookworm

ENV DEBIAN_FRONTEND=noninteractive
# LLVM/MLIR 22 ship in bookworm's security and updates suites; the base image
# lists them, and make is what the quick start drives.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends \
      make ca-certificates && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . /src
RUN scripts/setup.sh && rm -rf /var/lib/apt/lists/*
RUN make build
CMD ["make", "test"]
