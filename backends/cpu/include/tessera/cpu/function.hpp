// IFunction: a runtime operation that owns its kernels and temporaries and runs them through the
// Context's scheduler. configure() validates and plans; prepare() does one-off work (weights);
// run() executes.
#pragma once

namespace tessera::cpu {

class IFunction {
  public:
    virtual ~IFunction() = default;
    /// One-off work (e.g. packing weights); run() calls it if needed.
    virtual void prepare() {}
    virtual void run() = 0;
};

}  // namespace tessera::cpu
