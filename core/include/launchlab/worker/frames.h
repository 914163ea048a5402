#pragma once
/// The worker protocol's framing (worker.h): frames of [type: 1 byte][length: 8 bytes LE][payload].
///
/// Every connection starts with the worker's hello frame ('H', payload "launchlab-worker protocol N"). What comes
/// before it is not the worker's (a login banner, a shell's start-up files over SSH) and is kept as text; after it,
/// the stream holds frames only, each checked against its type's size cap before anything is allocated. The parent
/// reads with FrameReader, which takes bytes as they arrive, so that a read never blocks on a frame that is half
/// there: the caller polls, and cancel, watchdog and deadlines act between any two reads.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>

namespace launchlab::frames {

/// The protocol's version: a worker that says another one is refused with one message (install the same LaunchLab
/// on both sides).
inline constexpr int kProtocolVersion = 2;
/// The hello's payload, before the version number.
inline constexpr std::string_view kHelloMagic = "launchlab-worker protocol ";
/// The cap of every frame but a result: requests, device status, ceilings, progress, program output.
inline constexpr std::uint64_t kMaxSmallFrameBytes = std::uint64_t(1) << 20;
/// The cap of a worker's answer to a question: its device status ('I') or the ceilings ('K'), a few kilobytes.
inline constexpr std::uint64_t kMaxAnswerFrameBytes = std::uint64_t(64) << 10;
/// Text before the hello that is kept (and shown); more than this without a hello ends the connection.
inline constexpr std::size_t kMaxBannerBytes = std::size_t(64) << 10;

/// One frame's bytes: header and payload.
std::string encode(char type, std::string_view payload);
/// The hello frame of this version.
std::string hello();
/// The first characters of `bytes`, control characters as '?', cut at `max` (with "…"): for quoting a peer's
/// unexpected output in a message.
std::string quoted(std::string_view bytes, std::size_t max = 80);

/// The parent's side of a worker's stream. Frame types from a worker: 'I' device status, 'K' ceilings, 'P' progress,
/// 'O' program output, 'L' lost context, 'Z' result.
class FrameReader {
 public:
  /// `maxResultBytes`: the cap of a result frame ('Z'); every other type is capped at kMaxSmallFrameBytes, the
  /// device status and ceilings at kMaxAnswerFrameBytes. Every type a worker sends is taken until expect() says
  /// otherwise.
  explicit FrameReader(std::uint64_t maxResultBytes) : m_maxResult(maxResultBytes) {}
  /// The frames the parent waits for from now on: the types in `types` (the answer to what it asked and the frames
  /// that may come with it), a result ('Z') of at most `maxResultBytes`. A frame of another type is refused from
  /// its header, before its payload is read; `asked` names the question in that message ("when asked for the
  /// device").
  void expect(std::string_view types, std::uint64_t maxResultBytes, std::string asked);
  /// Takes the next bytes of the stream. After a problem, further bytes are ignored.
  void feed(const char* p, std::size_t n);
  /// The next complete frame, in order; false when none is complete.
  bool next(char& type, std::string& payload);
  bool greeted() const { return m_greeted; }
  /// The text that came before the hello (or, without one yet, so far), taken once.
  std::string takeBanner();
  /// "" or why the stream cannot be trusted further: no hello within kMaxBannerBytes, another protocol version,
  /// something that is not a frame after the hello, a frame over its cap, or no memory for a frame.
  std::string problem() const;
  /// Whether a frame is partly read (the stream ending now truncates it).
  bool midFrame() const { return m_haveHeader || !m_head.empty(); }
  /// How many bytes were fed so far (a watchdog's sign of life).
  std::uint64_t bytesSeen() const { return m_seen; }

 private:
  void seekHello();
  void noHello();
  void readFrames(const char* p, std::size_t n);
  bool takeHeader();

  std::uint64_t m_maxResult;
  std::string m_expected = "IKPOLZ";  ///< the frame types taken now
  std::string m_asked;                ///< what was asked, for the message about a frame that was not
  bool m_greeted = false;
  std::string m_pre;           ///< bytes before the hello
  std::size_t m_searched = 0;  ///< m_pre before this holds no hello start
  std::string m_banner;
  std::string m_head;  ///< the header being read
  bool m_haveHeader = false;
  char m_type = 0;
  std::uint64_t m_length = 0;
  std::string m_payload;
  std::deque<std::pair<char, std::string>> m_ready;
  std::string m_problem;
  std::string m_notAFrame;  ///< the first bytes of what came where a frame should have begun (quoted in problem())
  std::uint64_t m_seen = 0;
};

}  // namespace launchlab::frames
