// HK-RUN: elementwise kernel=scale_add expr=scale_add chips=gfx950,gfx90a shapes=64x64
module {}
