// Declares an operator the way a build against another torch would see it; this torch does not define it.
#include <torch/extension.h>

namespace at {
namespace _ops {
struct envplan_removed_op {
  static at::Tensor call(const at::Tensor& self, bool upper);
};
}  // namespace _ops
}  // namespace at

torch::Tensor removed(torch::Tensor a) { return at::_ops::envplan_removed_op::call(a, true); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("removed", &removed, "an op this torch lacks"); }
