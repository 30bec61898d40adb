/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Converts any first-class value to the i64 that handlers receive: integers
 * zero-extended (wider ones truncated to their first 8 bytes, little endian),
 * floats and vectors as their bits, pointers as addresses; aggregates as 0.
 * Depends on LLVM-C.
 */
#include "internal.h"

static LLVMValueRef int_to_i64(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef i64)
{
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (w == 64)
        return v;
    return w < 64 ? LLVMBuildZExt(b, v, i64, "") : LLVMBuildTrunc(b, v, i64, "");
}

LLVMValueRef gm_to_i64(LLVMBuilderRef b, LLVMValueRef v, LLVMTargetDataRef td)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMContextRef ctx = LLVMGetTypeContext(ty);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeKind k = LLVMGetTypeKind(ty);
    if (k == LLVMIntegerTypeKind)
        return int_to_i64(b, v, i64);
    if (k == LLVMPointerTypeKind)
        return LLVMBuildPtrToInt(b, v, i64, "");
    if (k == LLVMVectorTypeKind && LLVMGetTypeKind(LLVMGetElementType(ty)) == LLVMPointerTypeKind) {
        v = LLVMBuildPtrToInt(b, v, LLVMVectorType(i64, LLVMGetVectorSize(ty)), "");
        ty = LLVMTypeOf(v);
    }
    if (k == LLVMVectorTypeKind || k == LLVMHalfTypeKind || k == LLVMBFloatTypeKind ||
        k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMFP128TypeKind) {
        unsigned bits = (unsigned)LLVMSizeOfTypeInBits(td, ty);
        LLVMValueRef iv = LLVMBuildBitCast(b, v, LLVMIntTypeInContext(ctx, bits), "");
        return int_to_i64(b, iv, i64);
    }
    return LLVMConstInt(i64, 0, 0);
}
