// test_objects.cpp: context, reference counting, scalar, LUT, tensor creation and queries,
// views sharing their parent's memory, vxCopyTensorPatch with user strides, virtual tensors and
// image object arrays made from tensors.
#include <cstring>

#include "vx_test_support.hpp"

using namespace vx_test;

TEST_CASE("context: attributes and exact reference counts") {
    test_context context;
    vx_size max_dims = 0;
    REQUIRE(vxQueryContext(context, VX_CONTEXT_MAX_TENSOR_DIMENSIONS, &max_dims,
                           sizeof(max_dims)) == VX_SUCCESS);
    CHECK(max_dims >= 4);
    CHECK(VX_CONTEXT_MAX_TENSOR_DIMENSIONS == 0x8010E);
    CHECK(VX_TYPE_TENSOR == 0x815);
    CHECK(VX_TENSOR_FIXED_POINT_POS == 0x81504);
    vx_size ext_size = 0;
    REQUIRE(vxQueryContext(context, VX_CONTEXT_EXTENSIONS_SIZE, &ext_size, sizeof(ext_size)) ==
            VX_SUCCESS);
    std::vector<char> ext(ext_size);
    REQUIRE(vxQueryContext(context, VX_CONTEXT_EXTENSIONS, ext.data(), ext_size) == VX_SUCCESS);
    CHECK(std::string(ext.data()).find("vx_khr_cnn") != std::string::npos);

    const vx_uint32 start = context.references();
    vx_tensor t = make_tensor(context, {2, 3}, VX_TYPE_INT16, 8);
    vx_graph g = vxCreateGraph(context);
    CHECK(context.references() == start + 2);
    CHECK(vxGetContext(reinterpret_cast<vx_reference>(t)) == static_cast<vx_context>(context));
    REQUIRE(vxRetainReference(reinterpret_cast<vx_reference>(t)) == VX_SUCCESS);
    vx_uint32 count = 0;
    REQUIRE(vxQueryReference(reinterpret_cast<vx_reference>(t), VX_REFERENCE_COUNT, &count,
                             sizeof(count)) == VX_SUCCESS);
    CHECK(count == 2);
    vx_enum type = 0;
    REQUIRE(vxQueryReference(reinterpret_cast<vx_reference>(t), VX_REFERENCE_TYPE, &type,
                             sizeof(type)) == VX_SUCCESS);
    CHECK(type == VX_TYPE_TENSOR);
    vx_reference extra = reinterpret_cast<vx_reference>(t);
    CHECK(vxReleaseReference(&extra) == VX_SUCCESS);
    CHECK(extra == nullptr);
    CHECK(context.references() == start + 2);  // one reference left
    CHECK(vxReleaseTensor(&t) == VX_SUCCESS);
    CHECK(t == nullptr);
    CHECK(vxReleaseGraph(&g) == VX_SUCCESS);
    CHECK(context.references() == start);
    // A released handle is no longer valid; releasing NULL is an error.
    CHECK(vxReleaseTensor(&t) == VX_ERROR_INVALID_REFERENCE);
    CHECK(vxGetStatus(nullptr) == VX_ERROR_NO_RESOURCES);
}

TEST_CASE("scalar and LUT: create, query, copy") {
    test_context context;
    const vx_float32 half = 0.5f;
    vx_scalar s = vxCreateScalar(context, VX_TYPE_FLOAT32, &half);
    REQUIRE(s != nullptr);
    vx_enum type = 0;
    CHECK(vxQueryScalar(s, VX_SCALAR_TYPE, &type, sizeof(type)) == VX_SUCCESS);
    CHECK(type == VX_TYPE_FLOAT32);
    vx_float32 back = 0;
    CHECK(vxCopyScalar(s, &back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) == VX_SUCCESS);
    CHECK(back == 0.5f);
    CHECK(vxCreateScalar(context, VX_TYPE_TENSOR, &half) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_TYPE, {"vxCreateScalar", "data_type"}));
    vx_lut lut = vxCreateLUT(context, VX_TYPE_INT16, 16);
    REQUIRE(lut != nullptr);
    vx_uint32 offset = 0;
    vx_size count = 0;
    CHECK(vxQueryLUT(lut, VX_LUT_OFFSET, &offset, sizeof(offset)) == VX_SUCCESS);
    CHECK(vxQueryLUT(lut, VX_LUT_COUNT, &count, sizeof(count)) == VX_SUCCESS);
    CHECK(offset == 8);
    CHECK(count == 16);
    CHECK(vxCreateLUT(context, VX_TYPE_INT16, 65537) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_PARAMETERS, {"vxCreateLUT", "count"}));
    vxReleaseScalar(&s);
    vxReleaseLUT(&lut);
}

TEST_CASE("tensor: 1..max dimensions, attributes, round trip") {
    test_context context;
    vx_size max_dims = 0;
    vxQueryContext(context, VX_CONTEXT_MAX_TENSOR_DIMENSIONS, &max_dims, sizeof(max_dims));
    for (vx_size rank = 1; rank <= max_dims; ++rank) {
        std::vector<vx_size> dims(rank);
        for (vx_size d = 0; d < rank; ++d) dims[d] = 1 + (d * 3 + rank) % 4;
        vx_tensor t = make_tensor(context, dims, VX_TYPE_INT16, 8);
        CHECK(tensor_dims(t) == dims);
        vx_enum type = 0;
        vx_uint8 pos = 0;
        CHECK(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &type, sizeof(type)) == VX_SUCCESS);
        CHECK(vxQueryTensor(t, VX_TENSOR_FIXED_POINT_POS, &pos, sizeof(pos)) == VX_SUCCESS);
        CHECK(type == VX_TYPE_INT16);
        CHECK(pos == 8);
        const raw_t values = random_raw(element_count(dims), rank, -32768, 32767);
        write_tensor(t, values);
        CHECK(read_tensor(t) == values);
        vxReleaseTensor(&t);
    }
    std::vector<vx_uint32> too_many(max_dims + 1, 2);
    CHECK(vxCreateTensor(context, static_cast<vx_uint32>(max_dims + 1), too_many.data(),
                         VX_TYPE_INT16, 8) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_DIMENSION, {"num_of_dims"}));
    vx_uint32 dims2[] = {2, 2};
    CHECK(vxCreateTensor(context, 2, dims2, VX_TYPE_FLOAT32, 0) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_FORMAT, {"data_format"}));
    CHECK(vxCreateTensor(context, 2, dims2, VX_TYPE_UINT8, 3) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_FORMAT, {"fixed_point_pos"}));
    vx_uint32 zero[] = {2, 0};
    CHECK(vxCreateTensor(context, 2, zero, VX_TYPE_INT8, 0) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_DIMENSION, {"sizes[1]"}));
}

TEST_CASE("tensor patch copy: views and user strides in both directions") {
    test_context context;
    vx_tensor t = make_tensor(context, {4, 3, 2}, VX_TYPE_INT16, 8);
    const raw_t values = random_raw(24, 7, -1000, 1000);
    write_tensor(t, values);
    // Read the patch x 1..3, y 0..2, c 1..2 into a user buffer with padded strides.
    vx_uint32 start[] = {1, 0, 1}, end[] = {3, 2, 2};
    vx_tensor_view view = vxCreateTensorView(context, start, end, 3);
    REQUIRE(view != nullptr);
    vx_uint32 extent[] = {2, 2, 1}, strides[] = {4, 16, 64};  // 2 bytes of gap per element
    vx_tensor_addressing addr = vxCreateTensorAddressing(context, extent, strides, 3);
    REQUIRE(addr != nullptr);
    std::vector<std::int16_t> buffer(32, -1);
    REQUIRE(vxCopyTensorPatch(t, view, addr, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST) ==
            VX_SUCCESS);
    for (vx_size y = 0; y < 2; ++y)
        for (vx_size x = 0; x < 2; ++x) {
            const auto expected = values[(1 * 3 + y) * 4 + (x + 1)];
            CHECK(buffer[(y * 16 + x * 4) / 2] == expected);
        }
    CHECK(buffer[1] == -1);  // the gaps are untouched
    // Write it back negated.
    for (auto& v : buffer) v = static_cast<std::int16_t>(-v);
    REQUIRE(vxCopyTensorPatch(t, view, addr, buffer.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST) ==
            VX_SUCCESS);
    const raw_t after = read_tensor(t);
    for (vx_size c = 0; c < 2; ++c)
        for (vx_size y = 0; y < 3; ++y)
            for (vx_size x = 0; x < 4; ++x) {
                const vx_size i = (c * 3 + y) * 4 + x;
                const bool in_patch = c == 1 && y < 2 && x >= 1 && x < 3;
                CHECK(after[i] == (in_patch ? -values[i] : values[i]));
            }
    // Mismatched addressing and bad usage are rejected.
    vx_uint32 wrong[] = {3, 2, 1};
    vx_tensor_addressing bad = vxCreateTensorAddressing(context, wrong, strides, 3);
    CHECK(vxCopyTensorPatch(t, view, bad, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST) ==
          VX_ERROR_INVALID_PARAMETERS);
    CHECK(context.logged(VX_ERROR_INVALID_PARAMETERS, {"vxCopyTensorPatch", "user_addr"}));
    CHECK(vxCopyTensorPatch(t, view, addr, buffer.data(), VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST) ==
          VX_ERROR_INVALID_PARAMETERS);
    CHECK(vxCopyTensorPatch(t, view, addr, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) ==
          VX_ERROR_INVALID_PARAMETERS);
    CHECK(vxCopyTensorPatch(reinterpret_cast<vx_tensor>(view), nullptr, addr, buffer.data(),
                            VX_READ_ONLY, VX_MEMORY_TYPE_HOST) == VX_ERROR_INVALID_REFERENCE);
    vxReleaseTensorAddressing(&bad);
    vxReleaseTensorAddressing(&addr);
    vxReleaseTensorView(&view);
    vxReleaseTensor(&t);
}

TEST_CASE("tensor views share the parent's memory and keep it alive") {
    test_context context;
    const vx_uint32 start_refs = context.references();
    vx_tensor parent = make_tensor(context, {3, 2, 4}, VX_TYPE_INT16, 8);
    write_tensor(parent, random_raw(24, 3, -500, 500));
    vx_uint32 start[] = {0, 0, 2}, end[] = {3, 2, 4};
    vx_tensor_view view = vxCreateTensorView(context, start, end, 3);
    vx_tensor child = vxCreateTensorFromView(parent, view);
    REQUIRE(child != nullptr);
    CHECK(tensor_dims(child) == std::vector<vx_size>{3, 2, 2});
    // Writing the child changes the parent's channels 2..3.
    const raw_t child_values = random_raw(12, 4, -100, 100);
    write_tensor(child, child_values);
    const raw_t whole = read_tensor(parent);
    for (vx_size i = 0; i < 12; ++i) CHECK(whole[12 + i] == child_values[i]);
    // A view of a view.
    vx_uint32 start2[] = {1, 1, 1}, end2[] = {2, 2, 2};
    vx_tensor_view view2 = vxCreateTensorView(context, start2, end2, 3);
    vx_tensor grandchild = vxCreateTensorFromView(child, view2);
    REQUIRE(grandchild != nullptr);
    CHECK(read_tensor(grandchild) == raw_t{whole[12 + 6 + 3 + 1]});
    // Releasing the parent first: the children keep it alive and keep working.
    vxReleaseTensor(&parent);
    CHECK(read_tensor(child) == child_values);
    vxReleaseTensor(&child);
    CHECK(read_tensor(grandchild) == raw_t{child_values[6 + 3 + 1]});
    vxReleaseTensor(&grandchild);
    vxReleaseTensorView(&view);
    vxReleaseTensorView(&view2);
    CHECK(context.references() == start_refs);
    // A view outside the parent is rejected.
    vx_tensor small = make_tensor(context, {2, 2}, VX_TYPE_INT16, 8);
    vx_uint32 s3[] = {0, 0}, e3[] = {3, 1};
    vx_tensor_view outside = vxCreateTensorView(context, s3, e3, 2);
    CHECK(vxCreateTensorFromView(small, outside) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_DIMENSION, {"vxCreateTensorFromView", "dim 0"}));
    vx_uint32 e4[] = {0, 1};
    CHECK(vxCreateTensorView(context, s3, e4, 2) == nullptr);
    vxReleaseTensorView(&outside);
    vxReleaseTensor(&small);
}

TEST_CASE("virtual tensors cannot be accessed from outside") {
    test_context context;
    vx_graph graph = vxCreateGraph(context);
    vx_uint32 dims[] = {2, 2};
    vx_tensor v = vxCreateVirtualTensor(graph, 2, dims, VX_TYPE_INT16, 8);
    REQUIRE(v != nullptr);
    vx_uint32 extent[] = {2, 2}, strides[] = {2, 4};
    vx_tensor_addressing addr = vxCreateTensorAddressing(context, extent, strides, 2);
    std::int16_t buffer[4] = {};
    CHECK(vxCopyTensorPatch(v, nullptr, addr, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) ==
          VX_ERROR_OPTIMIZED_AWAY);
    CHECK(vxCopyTensorPatch(v, nullptr, addr, buffer, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST) ==
          VX_ERROR_OPTIMIZED_AWAY);
    CHECK(context.logged(VX_ERROR_OPTIMIZED_AWAY, {"virtual"}));
    // Unknown shape: 0 dims allowed for a virtual tensor.
    vx_tensor unknown = vxCreateVirtualTensor(graph, 0, nullptr, VX_TYPE_INT16, 8);
    REQUIRE(unknown != nullptr);
    CHECK(tensor_dims(unknown).empty());
    vxReleaseTensor(&unknown);
    vxReleaseTensorAddressing(&addr);
    vxReleaseTensor(&v);
    vxReleaseGraph(&graph);
}

TEST_CASE("image object array from a tensor views its planes") {
    test_context context;
    vx_tensor t = make_tensor(context, {4, 3, 5}, VX_TYPE_UINT8, 0);
    const raw_t values = random_raw(60, 11, 0, 255);
    write_tensor(t, values);
    vx_rectangle_t rect{1, 0, 4, 2};
    vx_object_array array = vxCreateImageObjectArrayFromTensor(t, rect, 3, 2, VX_DF_IMAGE_U8);
    REQUIRE(array != nullptr);
    vx_size items = 0;
    vx_enum item_type = 0;
    CHECK(vxQueryObjectArray(array, VX_OBJECT_ARRAY_NUMITEMS, &items, sizeof(items)) == VX_SUCCESS);
    CHECK(vxQueryObjectArray(array, VX_OBJECT_ARRAY_ITEMTYPE, &item_type, sizeof(item_type)) ==
          VX_SUCCESS);
    CHECK(items == 3);
    CHECK(item_type == VX_TYPE_IMAGE);
    vx_image image = reinterpret_cast<vx_image>(vxGetObjectArrayItem(array, 2));
    REQUIRE(image != nullptr);
    vx_uint32 width = 0, height = 0;
    vx_df_image format = 0;
    CHECK(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof(width)) == VX_SUCCESS);
    CHECK(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof(height)) == VX_SUCCESS);
    CHECK(vxQueryImage(image, VX_IMAGE_FORMAT, &format, sizeof(format)) == VX_SUCCESS);
    CHECK(width == 3);
    CHECK(height == 2);
    CHECK(format == VX_DF_IMAGE_U8);
    CHECK(vxGetObjectArrayItem(array, 3) == nullptr);
    vxReleaseImage(&image);
    // The array keeps the tensor alive.
    vxReleaseTensor(&t);
    vxReleaseObjectArray(&array);
    vx_tensor s16 = make_tensor(context, {4, 3, 2}, VX_TYPE_INT16, 8);
    CHECK(vxCreateImageObjectArrayFromTensor(s16, rect, 1, 1, VX_DF_IMAGE_U8) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_FORMAT, {"image_format"}));
    CHECK(vxCreateImageObjectArrayFromTensor(s16, rect, 3, 1, VX_DF_IMAGE_S16) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_PARAMETERS, {"array_size"}));
    vxReleaseTensor(&s16);
}
