hk.kernel @other() waves(1) { hk.return }
// HK-RUN: gemm kernel=nope form=ab block=16x16 shapes=16x16x16
