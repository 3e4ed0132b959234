// Decode attention over a paged KV cache (vLLM's PagedAttention layout):
// one new query token per sequence attends to its cached keys and values,
// which sit in fixed-size pages anywhere in the cache; a block table maps
// each sequence's logical pages to physical ones.
//
//   q        B x KVH x G x 128 (G query heads share a KV head: GQA)
//   k, v     KVH x slots x 128, slot = physical page * page_size + offset
//            (a view of the cache, e.g. vLLM's pages x page_size x KVH x 128)
//   table    B x max_pages x 1 (i32 physical page of each logical page)
//   lens     B x 1 (i32 tokens cached per sequence, at least 1)
//   out      B x KVH x G x 128
//   out[b, h] = softmax(q[b, h] k[h, rows_b]^T * scale) v[h, rows_b]
//
// One wave per (KV head, sequence): its 16-row query tile holds the G
// heads of the group (rows past G are zero and never stored), so K and V
// are read once per group. Keys go 32 at a time: their positions become
// physical rows (the page from the block table by hk.gather, the offset
// from the low bits), K and V rows are gathered straight into registers
// (positions at or past the length gather rows of zeros), S = q K^T on
// the matrix cores, an online softmax with keys past the length masked to
// -inf, and O += P V. bf16 data, f32 softmax and accumulation.
module {
  hk.kernel @paged_decode(%q: !hk.gl<?x?x?x128xbf16>,
                          %k: !hk.gl<?x?x128xbf16>, %v: !hk.gl<?x?x128xbf16>,
                          %table: !hk.gl<?x?x1xi32>, %lens: !hk.gl<?x1xi32>,
                          %out: !hk.gl<?x?x?x128xbf16>, %scale: f32,
                          %log2_page: i32) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %i1 = arith.constant 1 : i32
    %im1 = arith.constant -1 : i32
    %f32c_i = arith.constant 32 : i32
    %neg_inf = arith.constant 0xFF800000 : f32
    %h = hk.block_id x
    %b = hk.block_id y
    %b32 = arith.index_cast %b : index to i32
    %max_pages = hk.dim %table[1] : !hk.gl<?x?x1xi32>
    %one_page = arith.shli %i1, %log2_page : i32
    %page_mask = arith.subi %one_page, %i1 : i32
    // The block table's capacity bounds the loop; keys past the sequence's
    // length are masked.
    %ps = arith.index_cast %one_page : i32 to index
    %capacity = arith.muli %max_pages, %ps : index
    %cap31 = arith.addi %capacity, %c31 : index
    %tiles = arith.divui %cap31, %c32 : index

    // The sequence's length, on every row: gather row b of lens.
    %bvec = hk.fill %b32 : i32 -> !hk.rv<32xi32>
    %lens_i = hk.gather %lens[%c0] rows %bvec
        : !hk.gl<?x1xi32>, !hk.rv<32xi32> -> !hk.rt<32x16xi32, row>
    %lens_t = hk.convert %lens_i : !hk.rt<32x16xi32, row> -> !hk.rt<32x16xf32, row>
    %len32f = hk.row_sum %lens_t : !hk.rt<32x16xf32, row> -> !hk.rv<32xf32>
    %len32 = hk.convert %len32f : !hk.rv<32xf32> -> !hk.rv<32xi32>
    %len16 = hk.slice %len32f [0] : !hk.rv<32xf32> -> !hk.rv<16xf32>
    %zs = hk.zero : !hk.rt<16x32xf32>
    %len_t = hk.add_row %zs, %len16 : !hk.rt<16x32xf32>, !hk.rv<16xf32>
    %key_cols = hk.iota cols : !hk.rt<16x32xf32>
    %ninf_t = hk.fill %neg_inf : f32 -> !hk.rt<16x32xf32>
    %key_rows = hk.iota : !hk.rv<32xi32>
    %im1_v = hk.fill %im1 : i32 -> !hk.rv<32xi32>

    %qt = hk.load %q[%b, %h, %c0, %c0] : !hk.gl<?x?x?x128xbf16>
        -> !hk.rt<16x128xbf16>
    %m0 = hk.fill %neg_inf : f32 -> !hk.rv<16xf32>
    %l0 = hk.zero : !hk.rv<16xf32>
    %o0 = hk.zero : !hk.rt<16x128xf32>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x128xf32>) {
      %j32 = arith.index_cast %j : index to i32
      %p0 = arith.muli %j32, %f32c_i : i32
      // Physical rows of the 32 keys: table[b, pos >> log2_page] pages of
      // 2^log2_page slots, plus the offset pos & (page - 1).
      %pos = hk.add %key_rows, %p0 : !hk.rv<32xi32>, i32
      %lpage = hk.shru %pos, %log2_page : !hk.rv<32xi32>, i32
      %pages_i = hk.gather %table[%b, %c0] rows %lpage
          : !hk.gl<?x?x1xi32>, !hk.rv<32xi32> -> !hk.rt<32x16xi32, row>
      %pages_t = hk.convert %pages_i
          : !hk.rt<32x16xi32, row> -> !hk.rt<32x16xf32, row>
      %ppagef = hk.row_sum %pages_t : !hk.rt<32x16xf32, row> -> !hk.rv<32xf32>
      %ppage = hk.convert %ppagef : !hk.rv<32xf32> -> !hk.rv<32xi32>
      %base = hk.shl %ppage, %log2_page : !hk.rv<32xi32>, i32
      %off = hk.and %pos, %page_mask : !hk.rv<32xi32>, i32
      %slot = hk.add %base, %off : !hk.rv<32xi32>
      %live = hk.cmpi slt, %pos, %len32 : !hk.rv<32xi32>
      %rows = hk.select %live, %slot, %im1_v : !hk.rv<32xi1>, !hk.rv<32xi32>
      %kt = hk.gather %k[%h, %c0] rows %rows
          : !hk.gl<?x?x128xbf16>, !hk.rv<32xi32> -> !hk.rt<32x128xbf16>
      %vt = hk.gather %v[%h, %c0] rows %rows
          : !hk.gl<?x?x128xbf16>, !hk.rv<32xi32> -> !hk.rt<32x128xbf16>

      %s0 = hk.mma abt %qt, %kt, %zs
          : !hk.rt<16x128xbf16>, !hk.rt<32x128xbf16>, !hk.rt<16x32xf32>
      %s1 = hk.mul %s0, %scale : !hk.rt<16x32xf32>, f32
      %p0f = arith.sitofp %p0 : i32 to f32
      %kpos = hk.add %key_cols, %p0f : !hk.rt<16x32xf32>, f32
      %dead = hk.cmpf oge, %kpos, %len_t : !hk.rt<16x32xf32>
      %s = hk.select %dead, %ninf_t, %s1 : !hk.rt<16x32xi1>, !hk.rt<16x32xf32>

      %mnew = hk.row_max %s, %m : !hk.rt<16x32xf32> -> !hk.rv<16xf32>
      %d = hk.sub_row %s, %mnew : !hk.rt<16x32xf32>, !hk.rv<16xf32>
      %p = hk.exp %d : !hk.rt<16x32xf32>
      %shift = hk.sub %m, %mnew : !hk.rv<16xf32>
      %corr = hk.exp %shift : !hk.rv<16xf32>
      %lc = hk.mul %l, %corr : !hk.rv<16xf32>
      %lnew = hk.row_sum %p, %lc : !hk.rt<16x32xf32> -> !hk.rv<16xf32>
      %oc = hk.mul_row %o, %corr : !hk.rt<16x128xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x32xf32> -> !hk.rt<16x32xbf16>
      %onew = hk.mma ab %pb, %vt, %oc
          : !hk.rt<16x32xbf16>, !hk.rt<32x128xbf16>, !hk.rt<16x128xf32>
      scf.yield %mnew, %lnew, %onew
          : !hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x128xf32>
    }
    %res = hk.div_row %r#2, %r#1 {reciprocal} : !hk.rt<16x128xf32>, !hk.rv<16xf32>
    hk.store %res, %out[%b, %h, %c0, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x?x128xbf16>
    hk.return
  }
}

// HK-RUN: script kernel=paged_decode case=paged_decode.py:decode shapes=2x2x4x100x16,3x1x8x37x16,1x2x16x1x32
