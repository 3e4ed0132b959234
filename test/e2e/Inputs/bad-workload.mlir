module {}
// HK-RUN: conv kernel=k block=16x16 shapes=16x16
