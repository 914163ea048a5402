// The parent's frame reader (io/frames.h): text before the hello is kept as a banner, frames come out whole however
// the bytes are cut, and anything that is not a frame after the hello, a frame over its cap, another protocol
// version or text without end is a problem that names or quotes it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "launchlab/worker/frames.h"

using namespace launchlab;
using frames::FrameReader;

namespace {
void feed(FrameReader& r, const std::string& bytes) { r.feed(bytes.data(), bytes.size()); }
}  // namespace

TEST(Frames, BannerThenHelloThenFramesInAnyCuts) {
  const std::string stream = "Welcome to lab-gpu!\nLast login: today\n" + frames::hello() + frames::encode('P', "abc") +
                             frames::encode('O', "hello from thread 0\n") + frames::encode('Z', std::string(1000, 'z'));
  for (std::size_t cut : {std::size_t(1), std::size_t(7), std::size_t(64), stream.size()}) {
    FrameReader r(1 << 20);
    for (std::size_t i = 0; i < stream.size(); i += cut) feed(r, stream.substr(i, cut));
    ASSERT_EQ(r.problem(), "") << cut;
    EXPECT_TRUE(r.greeted());
    EXPECT_EQ(r.takeBanner(), "Welcome to lab-gpu!\nLast login: today\n");
    char type = 0;
    std::string payload;
    ASSERT_TRUE(r.next(type, payload));
    EXPECT_EQ(type, 'P');
    EXPECT_EQ(payload, "abc");
    ASSERT_TRUE(r.next(type, payload));
    EXPECT_EQ(payload, "hello from thread 0\n");
    ASSERT_TRUE(r.next(type, payload));
    EXPECT_EQ(type, 'Z');
    EXPECT_EQ(payload.size(), 1000u);
    EXPECT_FALSE(r.next(type, payload));
    EXPECT_EQ(r.bytesSeen(), stream.size());
  }
}

TEST(Frames, TheMagicWithoutAHelloHeaderIsText) {
  FrameReader r(1 << 20);
  feed(r, std::string("echo ") + std::string(frames::kHelloMagic) + "2\n");
  EXPECT_FALSE(r.greeted());
  feed(r, frames::hello());
  EXPECT_TRUE(r.greeted());
  EXPECT_EQ(r.takeBanner(), "echo " + std::string(frames::kHelloMagic) + "2\n");
}

TEST(Frames, TextAfterTheHelloIsQuoted) {
  FrameReader r(1 << 20);
  feed(r, frames::hello() + frames::encode('P', "x") + "hello from thread 0\n" + frames::encode('Z', "late"));
  EXPECT_EQ(r.problem(), "sent something that is not a frame: 'hello from thread 0'");
  char type = 0;
  std::string payload;
  ASSERT_TRUE(r.next(type, payload));  // the frame before the text is still delivered
  EXPECT_EQ(type, 'P');
  EXPECT_FALSE(r.next(type, payload));  // nothing after the problem
}

TEST(Frames, CapsAreCheckedBeforeAnyPayload) {
  FrameReader small(1 << 20);
  std::string head = frames::encode('P', {});
  const std::uint64_t big = frames::kMaxSmallFrameBytes + 1;
  std::memcpy(head.data() + 1, &big, 8);
  feed(small, frames::hello() + head);
  EXPECT_EQ(small.problem(), "sent a frame 'P' of 1048577 bytes (at most 1048576)");
  FrameReader result(5000);
  feed(result, frames::hello() + frames::encode('Z', std::string(5001, 'z')));
  EXPECT_EQ(result.problem(), "sent a frame 'Z' of 5001 bytes (at most 5000)");
  FrameReader unknown(5000);
  feed(unknown, frames::hello() + frames::encode('R', "x"));  // a parent's frame type, not a worker's
  EXPECT_NE(unknown.problem().find("not a frame"), std::string::npos);
}

namespace {
/// The header of a frame of `type` that announces `length` bytes (none of them follow).
std::string header(char type, std::uint64_t length) {
  std::string head = frames::encode(type, {});
  std::memcpy(head.data() + 1, &length, 8);
  return head;
}
}  // namespace

// A frame the parent did not ask for is refused from its header, whatever its size: a device query answered with a
// 3 GiB result costs nothing.
TEST(Frames, AFrameNotAskedForIsRefusedFromItsHeader) {
  FrameReader r(std::uint64_t(1) << 40);
  r.expect("IO", std::uint64_t(1) << 40, "when asked for the device");
  feed(r, frames::hello() + frames::encode('O', "starting\n") + header('Z', std::uint64_t(3) << 30));
  EXPECT_EQ(r.problem(),
            "sent a frame 'Z' of 3221225472 bytes when asked for the device (refused unread: it was not "
            "asked for)");
  char type = 0;
  std::string payload;
  ASSERT_TRUE(r.next(type, payload));  // what came before it, asked for, is still there
  EXPECT_EQ(type, 'O');
  // During a run the result comes; a device answer does not.
  FrameReader run(1 << 20);
  run.expect("POLZ", 1 << 20, "during a run");
  feed(run, frames::hello() + frames::encode('I', "x"));
  EXPECT_EQ(run.problem(), "sent a frame 'I' of 1 bytes during a run (refused unread: it was not asked for)");
}

// Each type has the cap of what it can hold: a device status or ceilings a few kilobytes, a lost-context notice
// nothing, a result what the request can produce (the parent says, per request).
TEST(Frames, EachTypeIsCappedByWhatItCanHold) {
  FrameReader device(std::uint64_t(1) << 40);
  device.expect("IO", std::uint64_t(1) << 40, "when asked for the device");
  feed(device, frames::hello() + header('I', frames::kMaxAnswerFrameBytes + 1));
  EXPECT_EQ(device.problem(), "sent a frame 'I' of 65537 bytes (at most 65536)");
  FrameReader lost(1 << 20);
  feed(lost, frames::hello() + header('L', 1));
  EXPECT_EQ(lost.problem(), "sent a frame 'L' of 1 bytes (at most 0)");
  FrameReader result(std::uint64_t(1) << 40);
  result.expect("POLZ", 70000, "during a run");
  feed(result, frames::hello() + frames::encode('Z', std::string(70000, 'z')) + header('Z', 70001));
  EXPECT_EQ(result.problem(), "sent a frame 'Z' of 70001 bytes (at most 70000)");
  char type = 0;
  std::string payload;
  ASSERT_TRUE(result.next(type, payload));
  EXPECT_EQ(payload.size(), 70000u);
}

TEST(Frames, EndlessTextWithoutAHelloIsBounded) {
  FrameReader r(1 << 20);
  const std::string chunk(4096, 'x');
  std::size_t fed = 0;
  while (r.problem().empty() && fed < 16 * frames::kMaxBannerBytes) {
    feed(r, chunk);
    fed += chunk.size();
  }
  EXPECT_LE(fed, frames::kMaxBannerBytes + chunk.size());
  EXPECT_EQ(r.problem().rfind("printed text and no hello: 'xxxx", 0), 0u) << r.problem();
  EXPECT_LE(r.problem().size(), 120u);  // quoted, not copied
}

TEST(Frames, AnotherVersionIsNamed) {
  FrameReader r(1 << 20);
  feed(r, frames::encode('H', std::string(frames::kHelloMagic) + "1"));
  EXPECT_FALSE(r.greeted());
  EXPECT_EQ(r.problem(), "speaks worker protocol '1', this LaunchLab speaks " +
                             std::to_string(frames::kProtocolVersion) +
                             " (install the same LaunchLab version on both sides)");
}

TEST(Frames, QuotedKeepsMessagesOnOneReadableLine) {
  EXPECT_EQ(frames::quoted("a\tb\x01\xff\n"),
            "'a?b?"
            "?'");  // split: no trigraph
  EXPECT_EQ(frames::quoted(std::string(100, 'y'), 4), "'yyyy...'");
}
