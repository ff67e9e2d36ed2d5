// A tiny real extension: it calls torch's C++ API with a std::string, so its symbols carry the C++ ABI flavour.
#include <torch/extension.h>

#include <string>

torch::Tensor add_on(torch::Tensor a, torch::Tensor b, const std::string& device) {
  c10::Device where(device);
  return (a + b).to(where);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("add_on", &add_on, "a + b on a device"); }
