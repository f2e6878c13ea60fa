// Each part of the kernel (shape, riichi, mcr, expected) adds its Python bindings to the
// one extension module, app.core._kernel, through this registry: a part's .cpp file holds
//   static const tenpai::Binding bind_me{"riichi", [](pybind11::module_& m) { ... }};
// and module.cpp calls every registered binding when Python imports the module.  So a part
// is added by adding its file; no list of parts is kept by hand.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <string>
#include <vector>

namespace tenpai {

struct Binding {
    using Function = std::function<void(pybind11::module_&)>;
    Binding(std::string name, Function bind);
};

struct RegisteredBinding {
    std::string name;
    Binding::Function bind;
};

std::vector<RegisteredBinding>& registered_bindings();

}  // namespace tenpai
