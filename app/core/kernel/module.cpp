// app.core._kernel: the compiled half of tenpai's rules engine (see registry.hpp).
#include <algorithm>

#include "registry.hpp"

namespace tenpai {

std::vector<RegisteredBinding>& registered_bindings() {
    static std::vector<RegisteredBinding> bindings;  // built at static initialisation, read once at import
    return bindings;
}

Binding::Binding(std::string name, Function bind) {
    registered_bindings().push_back({std::move(name), std::move(bind)});
}

}  // namespace tenpai

PYBIND11_MODULE(_kernel, module) {
    module.doc() = "tenpai's compiled kernel: shape look-ups, riichi and MCR scoring, the expected-score search.";
    auto& bindings = tenpai::registered_bindings();
    // Link order decides static initialisation order; sort so the module's layout is stable.
    std::sort(bindings.begin(), bindings.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (const auto& binding : bindings) binding.bind(module);
}
