// Memory manager (lifetimes, blob sharing, pools recycled across functions), the scratchpad,
// memory import, sub-tensors and tensor metadata.
#include <doctest/doctest.h>

#include <cstring>

#include "tessera/cpu/error.hpp"
#include "tessera/cpu/functions/gemm.hpp"
#include "tessera/cpu/memory.hpp"
#include "tessera/cpu/scratchpad.hpp"
#include "tessera/cpu/tensor.hpp"
#include "test_helpers.hpp"

using namespace tessera::cpu;
using namespace tessera::cpu::test;

TEST_CASE("lifetime manager: objects alive at once get distinct blobs, later ones reuse them") {
    auto mm = std::make_shared<MemoryManager>();
    MemoryGroup group(mm);
    Tensor t1(TensorInfo({100}, DataType::f32)), t2(TensorInfo({50}, DataType::f32)),
        t3(TensorInfo({300}, DataType::f32));
    group.manage(t1.allocator());
    group.manage(t2.allocator());
    t1.allocator().allocate();     // t1's lifetime ends
    group.manage(t3.allocator());  // starts after t1 ended: may take t1's blob
    t2.allocator().allocate();
    t3.allocator().allocate();
    CHECK_FALSE(t1.allocator().is_allocated());  // deferred until the group is acquired
    DefaultAllocator allocator;
    mm->populate(allocator, 1);
    const auto& sizes = mm->pool_blob_sizes();
    REQUIRE(sizes.size() == 2);
    CHECK(sizes[0] == 1200);  // max(t1 = 400 bytes, t3 = 1200 bytes)
    CHECK(sizes[1] == 200);   // t2
    CHECK(allocator.bytes_allocated() == 1400);
    {
        MemoryGroupScope scope(group);
        CHECK(t1.buffer() != nullptr);
        CHECK(t1.buffer() == t3.buffer());
        CHECK(t2.buffer() != t1.buffer());
    }
    CHECK(t1.buffer() == nullptr);
    CHECK_THROWS_AS(group.manage(t1.allocator()), MemoryError);  // after populate
    CHECK_THROWS_AS(mm->populate(allocator, 1), MemoryError);
}

TEST_CASE("memory manager: temporaries of several functions share one pool (max, not sum)") {
    Context ctx(ContextOptions{2});
    auto shared = std::make_shared<MemoryManager>();
    auto make_fc_inputs = [](int64_t n, int64_t in, int64_t out) {
        auto src = make_tensor({n, in});
        write_nchw(*src, random_vector(static_cast<std::size_t>(n * in), 1));
        auto w = make_tensor({out, in});
        write_nchw(*w, random_vector(static_cast<std::size_t>(out * in), 2));
        auto dst = make_tensor({n, out});
        return std::make_tuple(std::move(src), std::move(w), std::move(dst));
    };
    auto [s1, w1, d1] = make_fc_inputs(40, 300, 20);
    auto [s2, w2, d2] = make_fc_inputs(7, 90, 33);
    FullyConnected fc1(ctx, shared), fc2(ctx, shared);
    fc1.configure(*s1, *w1, nullptr, *d1);
    fc2.configure(*s2, *w2, nullptr, *d2);
    DefaultAllocator counting;
    shared->populate(counting, 1);
    const auto sizes = shared->pool_blob_sizes();
    REQUIRE(sizes.size() == 1);  // one workspace each, never alive together
    CHECK(counting.regions_allocated() == 1);
    fc1.run();
    fc2.run();
    fc1.run();
    CHECK(counting.regions_allocated() == 1);  // nothing allocated while running
    // results still right with recycled workspace
    auto [s3, w3, d3] = make_fc_inputs(40, 300, 20);
    FullyConnected alone(ctx);
    alone.configure(*s1, *w1, nullptr, *d3);
    alone.run();
    CHECK(read_nchw(*d1) == read_nchw(*d3));
    // Separate functions without a manager allocate their own workspace immediately.
    FullyConnected own(ctx);
    auto [s4, w4, d4] = make_fc_inputs(3, 10, 5);
    own.configure(*s4, *w4, nullptr, *d4);
    own.run();
}

TEST_CASE("import memory checks size, alignment and management") {
    Tensor t(TensorInfo({8, 8}, DataType::f32, DataLayout::plain, {}, "imported"));
    alignas(64) static float storage[80];
    t.allocator().import_memory(storage, sizeof(storage), 64);
    CHECK(t.data<float>() == storage);
    t.data<float>()[3] = 5.0f;
    CHECK(storage[3] == 5.0f);
    t.allocator().free();
    CHECK_THROWS_AS(t.allocator().import_memory(storage, 8 * 8 * 4 - 4), MemoryError);
    CHECK_THROWS_AS(t.allocator().import_memory(reinterpret_cast<uint8_t*>(storage) + 2, 300),
                    MemoryError);
    CHECK_THROWS_AS(t.allocator().import_memory(reinterpret_cast<uint8_t*>(storage) + 4, 300, 64),
                    MemoryError);
    CHECK_THROWS_AS(t.allocator().import_memory(nullptr, 300), MemoryError);
    try {
        t.allocator().import_memory(reinterpret_cast<uint8_t*>(storage) + 2, 300);
    } catch (const MemoryError& e) {
        CHECK(e.tensor() == "imported");
        CHECK(std::string(e.what()).find("aligned") != std::string::npos);
    }
    auto mm = std::make_shared<MemoryManager>();
    MemoryGroup group(mm);
    Tensor managed(TensorInfo({4}, DataType::f32));
    group.manage(managed.allocator());
    CHECK_THROWS_AS(managed.allocator().import_memory(storage, sizeof(storage)), MemoryError);
}

TEST_CASE("tensor info: blocked offsets, padding only while resizable") {
    TensorInfo info({2, 20, 3, 5}, DataType::f32, DataLayout::nchw16c);
    CHECK(info.channel_blocks() == 2);
    CHECK(info.extend_padding(PaddingSize{1, 2, 1, 2}));
    const int64_t wp = 5 + 4, hp = 3 + 2;
    // element (n=1, c=17, h=2, w=4): block 1, lane 1
    const int64_t expect = (((1 * 2 + 1) * hp + (2 + 1)) * wp + (4 + 2)) * 16 + 1;
    CHECK(info.offset_of(1, 17, 2, 4) == expect * 4);
    CHECK(info.total_size_in_bytes() == static_cast<std::size_t>(2 * 2 * hp * wp * 16 * 4));
    Tensor t(info);
    t.allocator().allocate();
    CHECK_FALSE(t.info().extend_padding(PaddingSize{3, 3, 3, 3}));
    CHECK(t.info().extend_padding(PaddingSize{1, 1, 1, 1}));  // already covered
    CHECK_THROWS_AS(TensorInfo({1, 2, 3}, DataType::f32, DataLayout::nchw), InvalidArgument);
}

TEST_CASE("sub-tensors alias the parent and refuse spatial or misaligned views") {
    auto parent = make_tensor({1, 48, 4, 4}, DataLayout::nchw16c);
    SubTensor view(*parent, {1, 16, 4, 4}, {0, 16, 0, 0});
    CHECK(view.buffer() == parent->buffer());
    float v = 3.5f;
    std::memcpy(view.buffer() + view.info().offset_of(0, 2, 1, 1), &v, 4);
    float back;
    std::memcpy(&back, parent->buffer() + parent->info().offset_of(0, 18, 1, 1), 4);
    CHECK(back == 3.5f);
    CHECK_THROWS_AS(SubTensor(*parent, {1, 16, 2, 4}, {0, 0, 0, 0}), InvalidArgument);
    CHECK_THROWS_AS(SubTensor(*parent, {1, 16, 4, 4}, {0, 8, 0, 0}), InvalidArgument);
    CHECK_THROWS_AS(SubTensor(*parent, {1, 8, 4, 4}, {0, 0, 0, 0}), InvalidArgument);
    auto parent40 = make_tensor({1, 40, 4, 4}, DataLayout::nchw16c);
    CHECK_NOTHROW(
        SubTensor(*parent40, {1, 8, 4, 4}, {0, 32, 0, 0}));  // partial block ending the parent
    CHECK_THROWS_AS(SubTensor(*parent, {1, 32, 4, 4}, {0, 32, 0, 0}), InvalidArgument);
}

TEST_CASE("scratchpad: one region reused and grown; a concurrent borrow gets its own") {
    Scratchpad pad;
    CHECK(pad.capacity() == 0);
    uint8_t* first = nullptr;
    {
        const Scratchpad::Lease lease = pad.borrow(1000);
        first = lease.data();
        CHECK(lease.shared());
        CHECK(reinterpret_cast<uintptr_t>(first) % kDefaultAlignment == 0);
        CHECK(pad.capacity() == 1000);
        const Scratchpad::Lease second = pad.borrow(500);  // the region is leased
        CHECK_FALSE(second.shared());
        CHECK(second.data() != first);
        CHECK(reinterpret_cast<uintptr_t>(second.data()) % kDefaultAlignment == 0);
        std::memset(second.data(), 0x5a, 500);  // its own memory (ASan checks the bounds)
    }
    {
        const Scratchpad::Lease again = pad.borrow(600);  // smaller: the same region
        CHECK(again.shared());
        CHECK(again.data() == first);
    }
    {
        const Scratchpad::Lease grown = pad.borrow(5000);
        CHECK(grown.shared());
        CHECK(pad.capacity() == 5000);
        std::memset(grown.data(), 0, 5000);
    }
    const Scratchpad::Lease after = pad.borrow(10);
    CHECK(after.shared());  // every lease was given back
}
