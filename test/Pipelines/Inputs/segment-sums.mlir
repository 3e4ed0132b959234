// Sums of consecutive 16-row tiles of x, `period` tiles a segment: the
// running sum is stored at each segment's end and restarts at zero, in a
// branch every iteration tests (a uniform condition).
module {
  hk.kernel @segment_sums(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>,
                          %period: i32) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %p = arith.index_cast %period : i32 to index
    %pm1 = arith.subi %p, %c1 : index
    %rows = hk.dim %x[0] : !hk.gl<?x?xf32>
    %tiles = arith.divui %rows, %c16 : index
    %zero = hk.zero : !hk.rt<16x64xf32, row>
    %last = scf.for %i = %c0 to %tiles step %c1 iter_args(%acc = %zero)
        -> !hk.rt<16x64xf32, row> {
      %t = hk.load %x[%i, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
      %s = hk.add %acc, %t : !hk.rt<16x64xf32, row>
      %q = arith.remui %i, %p : index
      %end = arith.cmpi eq, %q, %pm1 : index
      %next = scf.if %end -> !hk.rt<16x64xf32, row> {
        %o = arith.divui %i, %p : index
        hk.store %s, %y[%o, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
        scf.yield %zero : !hk.rt<16x64xf32, row>
      } else {
        scf.yield %s : !hk.rt<16x64xf32, row>
      }
      scf.yield %next : !hk.rt<16x64xf32, row>
    }
    hk.return
  }
}
