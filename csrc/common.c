/*
 * common.c - status strings, the enums' names and the exported JavaScript
 * number helpers.
 */
#include "relfterrain.h"
#include "rt_internal.h"

const char *rt_strerror(rt_status status)
{
    switch (status) {
    case RT_OK: return "success";
    case RT_ERR_PROFILE_LENGTH:
        return "profile length must be a power of two between 1 and 2**24";
    case RT_ERR_PROFILE_VALUE: return "profile values must be finite";
    case RT_ERR_VECTOR_LENGTH:
        return "direction vectors must all have one common length between 1 and 64";
    case RT_ERR_VECTOR_VALUE:
        return "direction vector components must be integers with |v| <= 2**20";
    case RT_ERR_PARAM: return "a parameter is not finite or out of range";
    case RT_ERR_SIZE: return "block dimensions must be >= 1 and the block not too large";
    case RT_ERR_COORD:
        return "coordinates must be finite and step a positive finite number";
    case RT_ERR_NOMEM: return "out of memory";
    case RT_ERR_PLACED_VALUE: return "placed value is not a terrain type or a feature";
    case RT_ERR_NULL: return "a required pointer is NULL";
    case RT_ERR_INTERRUPTED: return "interrupted: the caller's poll asked the call to stop";
    }
    return "unknown status";
}

double rt_round_js(double v) { return rt__round_js(v); }

int32_t rt_toint32(double v)
{
    uint32_t u = rt__low32(v);
    /* uint32 -> int32 without implementation-defined conversion. */
    return u < 0x80000000u ? (int32_t)u : (int32_t)(u - 0x80000000u) - INT32_MAX - 1;
}

static const char *const TERRAIN_TYPE_NAMES[RT_TERRAIN_TYPE_COUNT] = {
    "LAKE", "TOWN", "GRASS", "MOOR", "WOOD", "THICKET", "ROAD", "MUD", "PATH", "STREAM",
    "MARSH", "SNOW", "QUARRY"};
static const char *const FEATURE_NAMES[RT_FEATURE_COUNT] = {
    "NONE", "MINE", "BOULDER", "ROOT", "WATERHOLE", "KNOLL", "X", "CONE", "ROCKET", "BUILDING",
    "PHONE"};

const char *rt_terrain_type_name(int code)
{
    return code >= 0 && code < RT_TERRAIN_TYPE_COUNT ? TERRAIN_TYPE_NAMES[code] : NULL;
}

const char *rt_feature_name(int code)
{
    return code >= 0 && code < RT_FEATURE_COUNT ? FEATURE_NAMES[code] : NULL;
}
