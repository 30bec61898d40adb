// SPDX-License-Identifier: Apache-2.0
// Host emulation of warp collectives (see gm_emu.h): rendezvous of the
// lanes of a mask, with a timeout that reports a lane missing from a
// collective. C++17, tests only; depends on nothing of gpumem.
#include "gm_emu.h"
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <utility>

namespace gm_emu {
thread_local uint32_t lane, active, smid;
namespace {
struct rdv { uint32_t arrived = 0, left = 0; uint64_t v[32] = {}; };
std::mutex mu;
std::condition_variable cv;
std::map<std::pair<uint32_t, uint64_t>, rdv> open;
thread_local std::map<uint32_t, uint64_t> seq;
} // namespace

void exchange(uint32_t mask, uint64_t v, uint64_t out[32])
{
    if (!(mask >> lane & 1)) {
        fprintf(stderr, "emu: lane %u calls a collective with mask %08x that excludes it\n", lane, mask);
        abort();
    }
    auto key = std::make_pair(mask, seq[mask]++);
    std::unique_lock<std::mutex> l(mu);
    rdv &r = open[key];
    r.v[lane] = v;
    r.arrived |= 1u << lane;
    if (r.arrived == mask) cv.notify_all();
    if (!cv.wait_for(l, std::chrono::seconds(5), [&] { return r.arrived == mask; })) {
        fprintf(stderr, "emu: deadlock: collective #%llu with mask %08x, only lanes %08x arrived\n",
                (unsigned long long)key.second, mask, r.arrived);
        abort();
    }
    for (int i = 0; i < 32; i++) out[i] = r.v[i];
    r.left |= 1u << lane;
    if (r.left == mask) open.erase(key);
}
} // namespace gm_emu
