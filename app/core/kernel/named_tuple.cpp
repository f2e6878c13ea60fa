// NamedTuple constructors in C: named_tuple_new(cls) makes a function that builds an instance
// of the NamedTuple class cls from its fields, by position or keyword, with cls's defaults;
// app/core/value/scoring_context.py sets it as WinContext.__new__.  The __new__ that
// typing.NamedTuple writes binds its parameters in Python: with WinContext's 25 fields,
// building one from keywords took about 1 µs, a fifth of scoring a hand built from plain
// lists.  Calls that bind no parameters (_make, _replace, pickling) are not affected.
#include <Python.h>

#include <memory>
#include <string>
#include <vector>

#include "registry.hpp"

namespace py = pybind11;

namespace tenpai::named {
namespace {

constexpr const char* kCapsule = "tenpai.named_tuple_layout";

// What a constructor knows of its class: the fields in order and their defaults.
struct Layout {
    PyObject* type = nullptr;             // the NamedTuple class (a reference held)
    std::vector<PyObject*> names;         // interned field names (references held)
    std::vector<PyObject*> defaults;      // per field: the default (a reference held), or nullptr
    std::string function;                 // "WinContext.__new__()", for error messages

    Layout() = default;
    Layout(const Layout&) = delete;
    Layout& operator=(const Layout&) = delete;
    ~Layout() {  // with the GIL held: the capsule holding it is freed by Python
        Py_XDECREF(type);
        for (PyObject* name : names) Py_XDECREF(name);
        for (PyObject* value : defaults) Py_XDECREF(value);
    }
};

void release(PyObject* capsule) { delete static_cast<Layout*>(PyCapsule_GetPointer(capsule, kCapsule)); }

PyObject* type_error(const Layout& layout, const std::string& what) {
    PyErr_SetString(PyExc_TypeError, (layout.function + " " + what).c_str());
    return nullptr;
}

// The field a keyword names, or -1: interned names match by identity, others by value.
Py_ssize_t field_of(const Layout& layout, PyObject* key) {
    const Py_ssize_t count = static_cast<Py_ssize_t>(layout.names.size());
    for (Py_ssize_t i = 0; i < count; ++i) {
        if (layout.names[i] == key) return i;
    }
    if (!PyUnicode_Check(key)) return -1;
    for (Py_ssize_t i = 0; i < count; ++i) {
        if (PyUnicode_Compare(layout.names[i], key) == 0) return i;
    }
    return -1;
}

// __new__(cls, *values, **fields), as the Python __new__ binds them.
PyObject* construct(PyObject* capsule, PyObject* args, PyObject* kwargs) {
    const auto* layout = static_cast<const Layout*>(PyCapsule_GetPointer(capsule, kCapsule));
    if (layout == nullptr) return nullptr;
    const Py_ssize_t given = PyTuple_GET_SIZE(args);
    if (given < 1) return type_error(*layout, "needs the class as its first argument");
    PyObject* cls = PyTuple_GET_ITEM(args, 0);
    if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls),
                                                reinterpret_cast<PyTypeObject*>(layout->type))) {
        return type_error(*layout, "needs a subclass of its NamedTuple as its first argument");
    }
    const Py_ssize_t count = static_cast<Py_ssize_t>(layout->names.size());
    const Py_ssize_t positional = given - 1;
    if (positional > count) {
        return type_error(*layout, "takes at most " + std::to_string(count) + " field values by position, " +
                                       std::to_string(positional) + " were given");
    }
    PyObject* values[64] = {};  // borrowed; count <= 64 was checked at install
    for (Py_ssize_t i = 0; i < positional; ++i) values[i] = PyTuple_GET_ITEM(args, i + 1);
    if (kwargs != nullptr) {
        Py_ssize_t position = 0;
        PyObject* key = nullptr;
        PyObject* value = nullptr;
        while (PyDict_Next(kwargs, &position, &key, &value)) {
            const Py_ssize_t index = field_of(*layout, key);
            if (index < 0) {
                PyObject* shown = PyObject_Repr(key);
                const std::string name = shown != nullptr ? PyUnicode_AsUTF8(shown) : "?";
                Py_XDECREF(shown);
                PyErr_Clear();
                return type_error(*layout, "got an unexpected keyword argument " + name);
            }
            if (values[index] != nullptr) {
                return type_error(*layout,
                                  std::string("got multiple values for argument '") +
                                      PyUnicode_AsUTF8(layout->names[index]) + "'");
            }
            values[index] = value;
        }
    }
    for (Py_ssize_t i = 0; i < count; ++i) {
        if (values[i] != nullptr) continue;
        if (layout->defaults[i] == nullptr) {
            return type_error(*layout, std::string("missing required argument: '") +
                                           PyUnicode_AsUTF8(layout->names[i]) + "'");
        }
        values[i] = layout->defaults[i];
    }
    auto* type = reinterpret_cast<PyTypeObject*>(cls);
    PyObject* made = type->tp_alloc(type, count);
    if (made == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < count; ++i) {
        Py_INCREF(values[i]);
        PyTuple_SET_ITEM(made, i, values[i]);
    }
    return made;
}

PyMethodDef construct_method = {"__new__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct)),
                                METH_VARARGS | METH_KEYWORDS,
                                "Build the NamedTuple from its fields, by position or keyword (compiled)."};

py::object named_tuple_new(const py::handle& cls) {
    if (!PyType_Check(cls.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), &PyTuple_Type)) {
        throw py::type_error("named_tuple_new: a NamedTuple class is expected");
    }
    const py::tuple fields = cls.attr("_fields");
    const py::dict defaults = cls.attr("_field_defaults");
    if (fields.size() > 64) throw py::value_error("named_tuple_new: at most 64 fields");
    auto layout = std::make_unique<Layout>();
    layout->type = py::reinterpret_borrow<py::object>(cls).release().ptr();
    layout->function = py::str(cls.attr("__name__")).cast<std::string>() + ".__new__()";
    bool defaulted = false;
    for (const py::handle field : fields) {
        PyObject* name = field.ptr();
        if (!PyUnicode_CheckExact(name)) throw py::type_error("named_tuple_new: field names are str");
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        layout->names.push_back(name);
        PyObject* value = PyDict_GetItemWithError(defaults.ptr(), name);
        if (value == nullptr && PyErr_Occurred()) throw py::error_already_set();
        // NamedTuple's defaults are its last fields: a field without one after one with one
        // cannot be, and would make `required` wrong.
        if (value == nullptr && defaulted) throw py::value_error("named_tuple_new: defaults not at the end");
        defaulted = defaulted || value != nullptr;
        Py_XINCREF(value);
        layout->defaults.push_back(value);
    }
    PyObject* capsule = PyCapsule_New(layout.get(), kCapsule, release);
    if (capsule == nullptr) throw py::error_already_set();
    layout.release();
    PyObject* function = PyCFunction_New(&construct_method, capsule);
    Py_DECREF(capsule);  // the function holds it
    if (function == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(function);
}

const Binding bind_named_tuple{"named_tuple", [](py::module_& m) {
    m.def("named_tuple_new", &named_tuple_new, py::arg("cls"),
          "A compiled __new__ for the NamedTuple class cls: its fields by position or keyword, its defaults.");
}};

}  // namespace
}  // namespace tenpai::named
