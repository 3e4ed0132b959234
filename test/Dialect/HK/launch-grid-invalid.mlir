// RUN: hk-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'hk.launch_grid' must be three arrays of [parameter, dimension, extent] triples naming parameters of the kernel, got [[[1, 0, 128]], [], []]}}
hk.kernel @param_out_of_range(%y: !hk.gl<?x?xf32>) waves(1)
    attributes {hk.launch_grid = [[[1, 0, 128]], [], []]} {
  hk.return
}

// -----

// expected-error @+1 {{'hk.launch_grid' must be three arrays of [parameter, dimension, extent] triples naming parameters of the kernel, got [[[0, 0, 0]]]}}
hk.kernel @two_few_axes(%y: !hk.gl<?x?xf32>) waves(1)
    attributes {hk.launch_grid = [[[0, 0, 0]]]} {
  hk.return
}

// -----

// expected-error @+1 {{'hk.kernel_type' must be a function type, got "f32"}}
llvm.func @not_a_type() attributes {hk.kernel_type = "f32"} {
  llvm.return
}
