hk.kernel @k() waves(1) attributes {hk.sizes = array<i32: 1>, x = array<index: 2>} {
  hk.return
}
// HK-RUN: elementwise kernel=k expr=scale_add block=64x64 alpha=1 shapes=64x64
