// Exercises libhkhip's HIP API: memory in every direction, modules,
// launches with either argument form, streams, events and the errors of
// each. Takes the code object of test/Emulator/Inputs/sanitize.hip.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define SHOW(call) std::printf("%s -> %s\n", #call, hipGetErrorName(call))

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int count = -1;
  hipError_t error = hipGetDeviceCount(&count);
  std::printf("devices %d (%s)\n", count, hipGetErrorName(error));
  if (error != hipSuccess)
    return 1;
  hipDeviceProp_t props;
  SHOW(hipGetDeviceProperties(&props, 0));
  std::printf("name '%s' arch '%s' warp %d lds %zu cus %d\n", props.name,
              props.gcnArchName, props.warpSize, props.sharedMemPerBlock,
              props.multiProcessorCount);
  SHOW(hipSetDevice(1));
  SHOW(hipGetLastError());
  SHOW(hipGetLastError());

  // Memory: host -> device -> device -> host, memset, default direction.
  std::vector<float> host(256), back(256, 0.0f);
  for (int i = 0; i < 256; ++i)
    host[i] = float(i);
  void *a = nullptr, *b = nullptr;
  SHOW(hipMalloc(&a, 1024));
  SHOW(hipMalloc(&b, 1024));
  SHOW(hipMemcpy(a, host.data(), 1024, hipMemcpyHostToDevice));
  SHOW(hipMemcpy(b, a, 1024, hipMemcpyDeviceToDevice));
  SHOW(hipMemcpy(back.data(), b, 1024, hipMemcpyDefault));
  std::printf("round trip %s\n", back == host ? "equal" : "DIFFERENT");
  SHOW(hipMemset(b, 0, 1024));
  SHOW(hipMemsetD32(b, 0x3f800000, 128)); // 1.0f in the first half
  SHOW(hipMemcpy(back.data(), b, 1024, hipMemcpyDeviceToHost));
  std::printf("memset %g %g %g\n", double(back[0]), double(back[127]),
              double(back[128]));
  // Past the end of the allocation, and not a device pointer at all.
  SHOW(hipMemcpy(a, host.data(), 2048, hipMemcpyHostToDevice));
  SHOW(hipMemcpy(host.data(), host.data() + 1, 4, hipMemcpyDeviceToHost));
  SHOW(hipFree(host.data()));
  SHOW(hipMemcpy(nullptr, host.data(), 4, hipMemcpyHostToDevice));

  // Modules.
  hipModule_t module;
  hipFunction_t fill, hang;
  SHOW(hipModuleLoad(&module, "/nonexistent.hsaco"));
  SHOW(hipModuleLoadData(&module, host.data()));
  SHOW(hipModuleLoad(&module, argv[1]));
  SHOW(hipModuleGetFunction(&fill, module, "no_such_kernel"));
  SHOW(hipModuleGetFunction(&fill, module, "fill"));
  SHOW(hipModuleGetFunction(&hang, module, "hang"));
  int value = 0;
  SHOW(hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                           fill));
  std::printf("max threads %d\n", value);

  // Launches: 256 floats fill the 1 KiB buffer; kernelParams form.
  hipStream_t stream;
  SHOW(hipStreamCreate(&stream));
  int n = 256;
  void *params[] = {&b, &n};
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 0, stream, params,
                             nullptr));
  SHOW(hipStreamSynchronize(stream));
  SHOW(hipMemcpy(back.data(), b, 1024, hipMemcpyDeviceToHost));
  std::printf("filled %g %g\n", double(back[0]), double(back[255]));

  // The extra form: a packed kernarg buffer. 512 floats overrun it.
  struct {
    void *out;
    int n;
  } kernargs = {b, 512};
  size_t size = sizeof kernargs;
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &kernargs,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  SHOW(hipModuleLaunchKernel(fill, 2, 1, 1, 256, 1, 1, 0, stream, nullptr,
                             extra));
  SHOW(hipStreamSynchronize(stream));
  SHOW(hipStreamSynchronize(stream));
  // The null stream's pending failure reaches the next hipMemcpy.
  SHOW(hipModuleLaunchKernel(fill, 2, 1, 1, 256, 1, 1, 0, nullptr, nullptr,
                             extra));
  SHOW(hipMemcpy(back.data(), b, 4, hipMemcpyDeviceToHost));
  SHOW(hipDeviceSynchronize());

  // Launches the runtime refuses.
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 2048, 1, 1, 0, stream, params,
                             nullptr));
  SHOW(hipModuleLaunchKernel(fill, 0, 1, 1, 256, 1, 1, 0, stream, params,
                             nullptr));
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 1 << 20, stream, params,
                             nullptr));
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 0, stream, nullptr,
                             nullptr));
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 0, stream, params,
                             extra));

  // A kernel that never ends: the watchdog (HK_HIP_WATCHDOG) stops it.
  void *flag = nullptr;
  SHOW(hipMalloc(&flag, 4));
  SHOW(hipMemset(flag, 0, 4));
  void *hangParams[] = {&flag};
  SHOW(hipModuleLaunchKernel(hang, 1, 1, 1, 64, 1, 1, 0, stream, hangParams,
                             nullptr));
  SHOW(hipDeviceSynchronize());
  SHOW(hipDeviceSynchronize());

  // Events record when the work before them has finished.
  hipEvent_t start, stop, unused;
  SHOW(hipEventCreate(&start));
  SHOW(hipEventCreate(&stop));
  SHOW(hipEventCreate(&unused));
  SHOW(hipEventRecord(start, stream));
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 0, stream, params,
                             nullptr));
  SHOW(hipEventRecord(stop, stream));
  SHOW(hipStreamWaitEvent(nullptr, stop, 0));
  SHOW(hipEventSynchronize(stop));
  float ms = -1;
  SHOW(hipEventElapsedTime(&ms, start, stop));
  std::printf("elapsed %s\n", ms >= 0 ? "non-negative" : "NEGATIVE");
  SHOW(hipEventElapsedTime(&ms, start, unused));
  SHOW(hipEventQuery(stop));
  SHOW(hipStreamQuery(stream));

  // Handles after release (the other events are released quietly, so that
  // the sanitizer build's leak check sees none left).
  (void)hipEventDestroy(stop);
  (void)hipEventDestroy(unused);
  SHOW(hipEventDestroy(start));
  SHOW(hipEventDestroy(start));
  SHOW(hipStreamDestroy(stream));
  SHOW(hipStreamSynchronize(stream));
  SHOW(hipModuleUnload(module));
  SHOW(hipModuleLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 0, nullptr, params,
                             nullptr));
  SHOW(hipModuleUnload(module));
  SHOW(hipFree(a));
  SHOW(hipFree(a));
  SHOW(hipFree(b));
  SHOW(hipFree(flag));
  return 0;
}
