/*
 * cosim.h -- shared pieces of the lockstep co-simulation harnesses (tb/<blk>_cosim.cpp): the C
 * block of the GPU model (linked from libgpusim.a, the very code the GPU runs) and its Verilog
 * reference (rtl/<blk>.sv, Verilated with --prefix Vdut) get the same inputs every cycle; every
 * output and every register is compared; the first mismatch stops the run with a report and
 * a VCD of the cycles before it.  Header-only C++17; see docs/verification.md.
 *
 * What is here:
 *   Rng        seeded random generator (splitmix64) with mask helpers for stimulus
 *   get_bits / set_bits / get_mask / set_mask   bit fields and 128-bit slot masks (slotmask)
 *              of Verilated signals, plain integers or VlWide
 *   Checker    compares C and RTL values, keeps the first mismatch (cycle, field, both values)
 *   Recording  reader of `gpusim run KERNEL --record BLK=FILE` files (model/gpu/record.h)
 *   Dut<V>     a Verilated model with its context: clocking, reset, VCD, coverage.dat
 *   run<H>()   the command line and the main loop shared by every harness
 *
 * A harness H (see tb/ws_cosim.cpp, the pattern to copy) provides:
 *   using In = struct blk_in;                 the block's input port struct (recordings hold it)
 *   static const char *name();                "ws": the block's name as in recordings
 *   explicit H(const cosim::Options &o);      C cfgs (cosim_block_cfg) + a Dut<Vdut>; throws
 *                                             cosim::Error when the RTL parameters do not match
 *   cosim::Dut<Vdut> &dut();                  its Verilated model
 *   void configure(const void *cfg, uint32_t size);   nullptr: the random run's own cfgs; else
 *                                             a recording's cfg (throw Error if the RTL differs)
 *   void reset();                             X_reset on the C side and dut().reset()
 *   void random(cosim::Rng &r, In &in);       one cycle of legal constrained-random input
 *   void step(const In &in, cosim::Checker &c);   drive both sides, dut().settle(), compare
 *                                             outputs, X_commit + dut().edge(), compare regs
 * and main() is `return cosim::run<H>(argc, argv);`.
 *
 * Exit status of a harness: 0 no mismatch, 1 mismatch (report on stdout, VCD written),
 * 2 usage, input or configuration error.
 */
#ifndef COSIM_H
#define COSIM_H

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

extern "C" {
#include "gpu/record.h"
#include "cosim_cfg.h"
}

namespace cosim {

/* A clear error for the user (bad option, bad recording, parameter mismatch): exit 2. */
struct Error : std::runtime_error {
    explicit Error(const std::string &m) : std::runtime_error(m) {}
};

/* ------------------------------------------------------------------ options */

struct Options {
    std::string config = "configs/gtx480.cfg";  /* --config: the C block's configuration */
    uint64_t seed = 1;                          /* --seed */
    uint64_t cycles = 0;                        /* --cycles: random cycles (0: none) */
    uint64_t reset_every = 50000;               /* --reset-every: mean cycles between resets */
    std::vector<std::string> replays;           /* --replay FILE (repeatable) */
    std::string vcd = "mismatch.vcd";           /* --vcd: waveform written on a mismatch */
    uint64_t vcd_cycles = 2000;                 /* --vcd-cycles: cycles before it (0: all) */
    std::string cov;                            /* --cov: write coverage.dat here */
    bool quiet = false;                         /* -q: only the summary line */
};

static inline uint64_t parse_u64(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        throw Error(std::string(opt) + ": '" + s + "' is not a non-negative integer");
    return v;
}

static inline void usage(const char *prog, FILE *f)
{
    std::fprintf(f,
        "usage: %s [--config FILE] [--seed N] [--cycles N] [--reset-every N]\n"
        "          [--replay FILE]... [--vcd FILE] [--vcd-cycles N] [--cov FILE] [-q]\n"
        "  --cycles N      N cycles of seeded constrained-random stimulus\n"
        "  --replay FILE   replay a `gpusim run KERNEL --record BLK=FILE` recording\n"
        "  --vcd FILE      waveform of the cycles before a mismatch (default mismatch.vcd)\n"
        "  --cov FILE      write Verilator coverage (line + toggle) to FILE\n"
        "exit: 0 no mismatch, 1 mismatch, 2 usage or input error\n", prog);
}

static inline Options parse_options(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&](void) -> const char * {
            if (i + 1 >= argc)
                throw Error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--config") o.config = val();
        else if (a == "--seed") o.seed = parse_u64("--seed", val());
        else if (a == "--cycles") o.cycles = parse_u64("--cycles", val());
        else if (a == "--reset-every") o.reset_every = parse_u64("--reset-every", val());
        else if (a == "--replay") o.replays.push_back(val());
        else if (a == "--vcd") o.vcd = val();
        else if (a == "--vcd-cycles") o.vcd_cycles = parse_u64("--vcd-cycles", val());
        else if (a == "--cov") o.cov = val();
        else if (a == "-q") o.quiet = true;
        else if (a == "-h" || a == "--help") { usage(argv[0], stdout); std::exit(0); }
        else throw Error("unknown option '" + a + "' (--help lists them)");
    }
    if (!o.cycles && o.replays.empty())
        throw Error("nothing to do: give --cycles N and/or --replay FILE");
    return o;
}

/* ------------------------------------------------------------------ random stimulus */

/* splitmix64: small, seedable, identical on every host. */
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next()
    {
        uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint32_t u32() { return (uint32_t)(next() >> 32); }
    /* Uniform in [0, n) (n > 0). */
    uint32_t below(uint32_t n) { return (uint32_t)(((next() >> 32) * n) >> 32); }
    /* True with probability pct / 100. */
    bool chance(unsigned pct) { return below(100) < pct; }
    /* A mask of the low `bits` bits, each set with probability pct / 100. */
    uint64_t mask(unsigned bits, unsigned pct)
    {
        uint64_t m = 0;
        for (unsigned i = 0; i < bits; i++)
            if (chance(pct))
                m |= 1ull << i;
        return m;
    }
    /* 128 bits (a slotmask), each set with probability pct / 100. */
    unsigned __int128 mask128(unsigned pct)
    {
        if (pct == 0)
            return 0;
        if (pct >= 100)
            return ~(unsigned __int128)0;
        uint64_t lo = mask(64, pct);
        return (unsigned __int128)mask(64, pct) << 64 | lo;
    }
    /* 128 uniformly random bits. */
    unsigned __int128 u128()
    {
        uint64_t lo = next();
        return (unsigned __int128)next() << 64 | lo;
    }
private:
    uint64_t s_;
};

/* ------------------------------------------------------------------ bit access */

/* Bits [lsb, lsb+w) (w <= 64) of a Verilated signal: wide (VlWide) or plain integer. */
template <std::size_t N> uint64_t get_bits(const VlWide<N> &v, unsigned lsb, unsigned w)
{
    uint64_t r = 0;
    for (unsigned got = 0; got < w;) {
        unsigned b = lsb + got, off = b & 31, take = std::min(32 - off, w - got);
        uint64_t chunk = (uint64_t)(v.at(b >> 5) >> off) & ((1ull << take) - 1);
        r |= chunk << got;
        got += take;
    }
    return r;
}
template <class T, std::enable_if_t<std::is_integral<T>::value, int> = 0>
uint64_t get_bits(T v, unsigned lsb, unsigned w)
{
    uint64_t x = (uint64_t)v >> lsb;
    return w >= 64 ? x : x & ((1ull << w) - 1);
}

/* Set bits [lsb, lsb+w) (w <= 64) of a Verilated input to x. */
template <std::size_t N> void set_bits(VlWide<N> &v, unsigned lsb, unsigned w, uint64_t x)
{
    for (unsigned done = 0; done < w;) {
        unsigned b = lsb + done, off = b & 31, take = std::min(32 - off, w - done);
        EData m = (EData)(((1ull << take) - 1) << off);
        EData &word = v.at(b >> 5);
        word = (word & ~m) | ((EData)((x >> done) << off) & m);
        done += take;
    }
}
template <class T, std::enable_if_t<std::is_integral<T>::value, int> = 0>
void set_bits(T &v, unsigned lsb, unsigned w, uint64_t x)
{
    uint64_t m = (w >= 64 ? ~0ull : (1ull << w) - 1) << lsb;
    v = (T)(((uint64_t)v & ~m) | (x << lsb & m));
}

/* The low w (<= 128) bits of a Verilated signal as a slot mask. */
template <class T> unsigned __int128 get_mask(const T &v, unsigned w)
{
    unsigned __int128 lo = get_bits(v, 0, std::min(w, 64u));
    return w > 64 ? (unsigned __int128)get_bits(v, 64, w - 64) << 64 | lo : lo;
}
/* A 128-bit Verilated input from a slot mask. */
static inline void set_mask(VlWide<4> &v, unsigned __int128 m)
{
    set_bits(v, 0, 64, (uint64_t)m);
    set_bits(v, 64, 64, (uint64_t)(m >> 64));
}

/* ------------------------------------------------------------------ comparison */

/* Keeps the first mismatch; harnesses call eq() for every output field and register. */
class Checker {
public:
    uint64_t cycle = 0;          /* set by run(): stimulus cycle (or record index) */
    std::string where;           /* set by run(): "random, seed 1" or the recording's path */
    int64_t launch = -1;         /* replay: kernel launch of the record (-1: random) */
    uint64_t model_cycle = 0;    /* replay: the model's cycle number in the record */

    /* Scope prefix for the next fields, e.g. "u2 twolevel/5/2" (instances of a top). */
    void scope(const std::string &s) { scope_ = s; }
    bool eq(const char *field, uint64_t c, uint64_t rtl) { return eq(field, -1, c, rtl); }
    bool eq(const char *field, int idx, uint64_t c, uint64_t rtl)
    {
        if (c == rtl)
            return true;
        if (!failed_) {
            failed_ = true;
            fcycle_ = cycle;
            fwhere_ = where;
            if (launch >= 0)
                fwhere_ += ": record " + std::to_string(cycle) + ", launch " +
                           std::to_string(launch) + ", model cycle " + std::to_string(model_cycle);
            field_ = (scope_.empty() ? "" : scope_ + ": ") + field +
                     (idx >= 0 ? "[" + std::to_string(idx) + "]" : "");
            c_ = c;
            rtl_ = rtl;
        }
        return false;
    }
    /* A 128-bit slot mask, compared as two 64-bit halves: "field[idx][63:0]" or
       "field[idx][127:64]" names the half that differs (idx < 0: none). */
    bool eq_mask(const char *field, int idx, unsigned __int128 c, unsigned __int128 rtl)
    {
        if (c == rtl)
            return true;
        bool lo = (uint64_t)c != (uint64_t)rtl;
        std::string f = std::string(field) + (idx >= 0 ? "[" + std::to_string(idx) + "]" : "") +
                        (lo ? "[63:0]" : "[127:64]");
        return eq(f.c_str(), -1, (uint64_t)(lo ? c : c >> 64), (uint64_t)(lo ? rtl : rtl >> 64));
    }
    bool failed() const { return failed_; }
    uint64_t fail_cycle() const { return fcycle_; }
    void report(FILE *f) const
    {
        std::fprintf(f, "MISMATCH at cycle %" PRIu64 " (%s)\n  field %s\n  C   = 0x%" PRIx64
                     " (%" PRIu64 ")\n  RTL = 0x%" PRIx64 " (%" PRIu64 ")\n", fcycle_,
                     fwhere_.c_str(), field_.c_str(), c_, c_, rtl_, rtl_);
    }
private:
    std::string scope_, fwhere_, field_;
    bool failed_ = false;
    uint64_t fcycle_ = 0, c_ = 0, rtl_ = 0;
};

/* ------------------------------------------------------------------ recordings */

/* A whole recording in memory: header, the block's cfg bytes, records {u64 cycle; X_in}. */
class Recording {
public:
    rec_header h{};
    std::vector<uint8_t> cfg;

    Recording(const std::string &path, const char *block, uint32_t in_size) : path_(path)
    {
        std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen(path.c_str(), "rb"), std::fclose);
        if (!f)
            throw Error(path + ": cannot open: " + std::strerror(errno));
        if (std::fread(&h, sizeof h, 1, f.get()) != 1)
            throw Error(path + ": too short for a recording header");
        if (std::memcmp(h.magic, REC_MAGIC, sizeof REC_MAGIC) != 0)
            throw Error(path + ": not a gpusim recording (bad magic)");
        h.block[sizeof h.block - 1] = h.config[sizeof h.config - 1] = 0;
        if (std::strcmp(h.block, block) != 0)
            throw Error(path + ": records block '" + h.block + "', this harness is '" + block + "'");
        if (h.in_size != in_size)
            throw Error(path + ": input record size " + std::to_string(h.in_size) +
                        " != sizeof(struct " + block + "_in) " + std::to_string(in_size) +
                        " (recorded by another version of the model?)");
        if (h.cfg_size == 0 || h.cfg_size > 4096)
            throw Error(path + ": implausible cfg size " + std::to_string(h.cfg_size));
        cfg.resize(h.cfg_size);
        if (std::fread(cfg.data(), 1, cfg.size(), f.get()) != cfg.size())
            throw Error(path + ": truncated in the cfg");
        rec_ = sizeof(uint64_t) + in_size;
        long here = std::ftell(f.get());
        if (here < 0 || std::fseek(f.get(), 0, SEEK_END) != 0)
            throw Error(path + ": cannot seek");
        uint64_t left = (uint64_t)(std::ftell(f.get()) - here);
        std::fseek(f.get(), here, SEEK_SET);
        if (left / rec_ != h.records || left % rec_ != 0)
            throw Error(path + ": header says " + std::to_string(h.records) + " records of " +
                        std::to_string(rec_) + " bytes, the file holds " +
                        std::to_string(left) + " bytes of records (truncated?)");
        data_.resize((size_t)left);
        if (std::fread(data_.data(), 1, data_.size(), f.get()) != data_.size())
            throw Error(path + ": read error");
    }
    uint64_t size() const { return h.records; }
    uint64_t cycle(uint64_t i) const
    {
        uint64_t c;
        std::memcpy(&c, &data_[(size_t)(i * rec_)], sizeof c);
        return c;
    }
    const void *in(uint64_t i) const { return &data_[(size_t)(i * rec_) + sizeof(uint64_t)]; }
    const std::string &path() const { return path_; }
private:
    std::string path_;
    size_t rec_ = 0;
    std::vector<uint8_t> data_;
};

/* ------------------------------------------------------------------ the Verilated model */

/* A Verilated model (top ports clk and rst) with its own context.  Time: one cycle is two
 * time units -- inputs and combinational outputs at 2c, registers updated at 2c+1. */
template <class V> class Dut {
public:
    Dut() : ctx_(new_context()), top_(new V(ctx_.get(), "TOP")) {}
    ~Dut()
    {
        close_wave();
        top_->final();
        /* Verilator 5.006 unregisters the model's scopes from the thread's current context,
         * which may be another (already destroyed) model's: point it at ours first. */
        Verilated::threadContextp(ctx_.get());
        top_.reset();
    }
    V *operator->() { return top_.get(); }
    V &top() { return *top_; }
    VerilatedContext &ctx() { return *ctx_; }

    /* Combinational settle with clk low: outputs reflect this cycle's inputs. */
    void settle()
    {
        top_->clk = 0;
        top_->eval();
        dump();
    }
    /* Rising edge: the registers take their next state; then back to time 2(c+1). */
    void edge()
    {
        ctx_->timeInc(1);
        top_->clk = 1;
        top_->eval();
        dump();
        ctx_->timeInc(1);
    }
    /* Synchronous reset: rst high for one clock (inputs as the harness left them). */
    void reset()
    {
        top_->rst = 1;
        settle();
        edge();
        top_->rst = 0;
    }

    /* Waveform: dump cycles from `from` on (0: all) into path. */
    void open_wave(const std::string &path, uint64_t from)
    {
#if VM_TRACE
        wave_.reset(new VerilatedVcdC);
        top_->trace(wave_.get(), 99);
        wave_->open(path.c_str());
        wave_from_ = 2 * from;
#else
        (void)path; (void)from;
        throw Error("this harness was built without --trace: no waveform");
#endif
    }
    void close_wave()
    {
#if VM_TRACE
        if (wave_) { wave_->close(); wave_.reset(); }
#endif
    }
    /* Write this context's coverage (line + toggle) to path. */
    bool write_coverage(const std::string &path)
    {
#if VM_COVERAGE
        ctx_->coveragep()->write(path.c_str());
        return true;
#else
        (void)path;
        return false;
#endif
    }
private:
    static VerilatedContext *new_context()
    {
        VerilatedContext *c = new VerilatedContext;
        c->traceEverOn(true);            /* before the model exists: VCD on a mismatch */
        return c;
    }
    void dump()
    {
#if VM_TRACE
        if (wave_ && ctx_->time() >= wave_from_)
            wave_->dump(ctx_->time());
#endif
    }
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<V> top_;
#if VM_TRACE
    std::unique_ptr<VerilatedVcdC> wave_;
    uint64_t wave_from_ = 0;
#endif
};

/* ------------------------------------------------------------------ the main loop */

/* One phase of a run: random stimulus, or one recording. */
struct Phase {
    const Recording *rec = nullptr;   /* nullptr: random */
};

/* Runs a phase on a fresh harness; stops after cycle `stop` (UINT64_MAX: the end) or at the
 * first mismatch.  Returns the number of cycles run; chk says whether it failed. */
template <class H>
uint64_t run_phase(H &h, const Options &o, const Phase &p, Checker &chk, uint64_t stop)
{
    typename H::In in;
    uint64_t n = 0;
    if (!p.rec) {
        Rng rng(o.seed);
        h.configure(nullptr, 0);
        h.reset();
        chk.where = "random, seed " + std::to_string(o.seed);
        for (; n < o.cycles && n <= stop; n++) {
            if (o.reset_every && rng.below((uint32_t)std::min<uint64_t>(o.reset_every,
                                                                         UINT32_MAX)) == 0)
                h.reset();
            std::memset(&in, 0, sizeof in);
            h.random(rng, in);
            chk.cycle = n;
            h.step(in, chk);
            if (chk.failed())
                return n + 1;
        }
        return n;
    }
    const Recording &r = *p.rec;
    h.configure(r.cfg.data(), (uint32_t)r.cfg.size());
    h.reset();
    chk.where = r.path();
    chk.launch = 0;
    for (; n < r.size() && n <= stop; n++) {
        /* The model starts every launch with fresh SMs: the recorded cycle goes back. */
        if (n && r.cycle(n) <= r.cycle(n - 1)) {
            h.reset();
            chk.launch++;
        }
        std::memcpy(&in, r.in(n), sizeof in);
        chk.cycle = n;
        chk.model_cycle = r.cycle(n);
        h.step(in, chk);
        if (chk.failed())
            return n + 1;
    }
    return n;
}

template <class H> int run_checked(int argc, char **argv)
{
    Options o = parse_options(argc, argv);
    std::vector<std::unique_ptr<Recording>> recs;
    for (const std::string &f : o.replays)
        recs.emplace_back(new Recording(f, H::name(), sizeof(typename H::In)));
    std::vector<Phase> phases;
    if (o.cycles)
        phases.push_back(Phase{});
    for (auto &r : recs)
        phases.push_back(Phase{r.get()});

    H h(o);
    uint64_t total = 0, rand_cycles = 0;
    for (const Phase &p : phases) {
        Checker chk;
        uint64_t n = run_phase(h, o, p, chk, UINT64_MAX);
        if (chk.failed()) {
            chk.report(stdout);
#if VM_TRACE
            /* Re-run the same stimulus on a fresh model with the waveform on. */
            uint64_t fail = chk.fail_cycle();
            uint64_t from = (o.vcd_cycles && fail > o.vcd_cycles) ? fail - o.vcd_cycles : 0;
            H h2(o);
            h2.dut().open_wave(o.vcd, from);
            Checker chk2;
            run_phase(h2, o, p, chk2, fail);
            h2.dut().close_wave();
            std::printf("  waveform: %s (stimulus cycles %" PRIu64 "..%" PRIu64 ")\n",
                        o.vcd.c_str(), from, fail);
#else
            std::printf("  no waveform: this harness was built without --trace\n");
#endif
            std::printf("%s: FAIL (mismatch)\n", H::name());
            return 1;
        }
        if (!o.quiet)
            std::printf("%s: %-40s %10" PRIu64 " cycles, 0 mismatches\n", H::name(),
                        p.rec ? p.rec->path().c_str()
                              : ("random, seed " + std::to_string(o.seed)).c_str(), n);
        total += n;
        if (!p.rec)
            rand_cycles = n;
    }
    if (!o.cov.empty() && !h.dut().write_coverage(o.cov))
        throw Error("--cov: this harness was built without --coverage");
    std::printf("%s: PASS %" PRIu64 " cycles (%" PRIu64 " random, seed %" PRIu64 "; %zu "
                "recordings), 0 mismatches\n", H::name(), total, rand_cycles, o.seed,
                recs.size());
    return 0;
}

/* main() of a harness: `return cosim::run<H>(argc, argv);` */
template <class H> int run(int argc, char **argv)
{
    try {
        return run_checked<H>(argc, argv);
    } catch (const Error &e) {
        std::fprintf(stderr, "%s_cosim: %s\n", H::name(), e.what());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s_cosim: error: %s\n", H::name(), e.what());
        return 2;
    }
}

/* Load the C block's cfg from a configuration file exactly as the SM makes it. */
template <class Cfg> Cfg block_cfg(const std::string &config, const char *block)
{
    Cfg c;
    char err[1024];
    if (cosim_block_cfg(config.c_str(), block, &c, sizeof c, err, sizeof err))
        throw Error(err);
    return c;
}

} /* namespace cosim */

#endif
