# HK-MLIR on a clean Debian bookworm: the same set-up script and test command
# that CI runs (.ci/run: make test). The image builds only when the whole
# suite passes; running it does the main job.
#   docker build -t hk-mlir .
#   docker run --rm hk-mlir            # make run
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
# A failing test fails the image build.
RUN make test
CMD ["make", "run"]
