#include "launchlab/worker/frames.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace launchlab::frames {

namespace {

constexpr std::size_t kHeaderBytes = 9;
/// A hello's payload is the magic and a few digits; a longer one is not a hello.
constexpr std::uint64_t kMaxHelloBytes = 64;
/// A result's payload grows as its bytes arrive: reserving more than this up front would let a length that the
/// stream never backs cost memory.
constexpr std::uint64_t kMaxReserveBytes = std::uint64_t(64) << 20;
/// How much of what is not a frame a problem quotes.
constexpr std::size_t kQuotedBytes = 80;

std::string readableType(char t) {
  const auto c = static_cast<unsigned char>(t);
  return c >= 0x21 && c < 0x7f ? std::string("'") + t + "'" : "of type " + std::to_string(int(c));
}

}  // namespace

std::string encode(char type, std::string_view payload) {
  std::string out(kHeaderBytes, '\0');
  out[0] = type;
  const std::uint64_t n = payload.size();
  std::memcpy(out.data() + 1, &n, 8);
  out.append(payload);
  return out;
}

std::string hello() { return encode('H', std::string(kHelloMagic) + std::to_string(kProtocolVersion)); }

std::string quoted(std::string_view bytes, std::size_t max) {
  const std::size_t end = bytes.find_last_not_of(" \t\r\n");
  bytes = end == std::string_view::npos ? std::string_view() : bytes.substr(0, end + 1);
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    out += c >= 0x20 && c < 0x7f ? char(c) : '?';  // no control characters or broken UTF-8 in a message
  }
  if (bytes.size() > max) out += "...";
  return "'" + out + "'";
}

void FrameReader::feed(const char* p, std::size_t n) {
  m_seen += n;
  if (!m_notAFrame.empty()) {  // the quote grows to the same text however the bytes arrive
    m_notAFrame.append(p, std::min(n, kQuotedBytes - std::min(kQuotedBytes, m_notAFrame.size())));
    return;
  }
  if (!m_problem.empty() || n == 0) return;
  try {
    if (m_greeted) {
      readFrames(p, n);
      return;
    }
    m_pre.append(p, n);
    seekHello();
  } catch (const std::bad_alloc&) {
    m_problem = "sent a frame of " + std::to_string(m_length) + " bytes, more than this process could allocate";
    m_payload = std::string();
    m_pre = std::string();
  }
}

void FrameReader::seekHello() {
  for (;;) {
    const std::size_t at = m_pre.find(kHelloMagic, m_searched);
    if (at == std::string::npos) {
      // A magic cut by the end of what arrived is found on the next call.
      m_searched = std::max(m_searched, m_pre.size() - std::min(m_pre.size(), kHelloMagic.size() - 1));
      // Past this, a hello that starts within the banner's limit would have been found whole.
      if (m_pre.size() > kMaxBannerBytes + kHeaderBytes + kMaxHelloBytes) noHello();
      return;
    }
    if (at - std::min(at, kHeaderBytes) > kMaxBannerBytes) {
      noHello();
      return;
    }
    std::uint64_t len = 0;
    if (at >= kHeaderBytes) std::memcpy(&len, m_pre.data() + at - 8, 8);
    if (at < kHeaderBytes || m_pre[at - kHeaderBytes] != 'H' || len < kHelloMagic.size() || len > kMaxHelloBytes) {
      m_searched = at + 1;  // the words without a hello's header: text
      continue;
    }
    if (m_pre.size() - at < len) return;  // the rest of the hello is on its way
    const std::string version = m_pre.substr(at + kHelloMagic.size(), len - kHelloMagic.size());
    m_banner += m_pre.substr(0, at - kHeaderBytes);
    if (version != std::to_string(kProtocolVersion)) {
      m_problem = "speaks worker protocol " + quoted(version, 12) + ", this LaunchLab speaks " +
                  std::to_string(kProtocolVersion) + " (install the same LaunchLab version on both sides)";
      return;
    }
    m_greeted = true;
    const std::string rest = m_pre.substr(at + len);
    m_pre = std::string();
    readFrames(rest.data(), rest.size());
    return;
  }
}

void FrameReader::noHello() {
  m_problem = "printed text and no hello: " + quoted(m_pre);
  m_pre.resize(kMaxBannerBytes);  // the banner kept is the same however the bytes arrived
  m_searched = std::min(m_searched, m_pre.size());
}

void FrameReader::expect(std::string_view types, std::uint64_t maxResultBytes, std::string asked) {
  m_expected = std::string(types);
  m_maxResult = maxResultBytes;
  m_asked = std::move(asked);
}

namespace {
/// What a frame of type `t` may hold at most.
std::uint64_t capOf(char t, std::uint64_t maxResult) {
  if (t == 'Z') return maxResult;
  if (t == 'I' || t == 'K') return kMaxAnswerFrameBytes;
  if (t == 'L') return 0;
  return kMaxSmallFrameBytes;
}
}  // namespace

bool FrameReader::takeHeader() {
  m_type = m_head[0];
  std::memcpy(&m_length, m_head.data() + 1, 8);
  const std::string_view known = "IKPOLZ";
  if (known.find(m_type) == std::string_view::npos) return false;
  if (m_expected.find(m_type) == std::string::npos) {
    m_problem = "sent a frame " + readableType(m_type) + " of " + std::to_string(m_length) + " bytes" +
                (m_asked.empty() ? std::string() : " " + m_asked) + " (refused unread: it was not asked for)";
    return false;
  }
  const std::uint64_t cap = capOf(m_type, m_maxResult);
  if (m_length > cap) {
    m_problem = "sent a frame " + readableType(m_type) + " of " + std::to_string(m_length) + " bytes (at most " +
                std::to_string(cap) + ")";
    return false;
  }
  m_haveHeader = true;
  m_payload.clear();
  m_payload.reserve(std::size_t(std::min(m_length, kMaxReserveBytes)));
  return true;
}

void FrameReader::readFrames(const char* p, std::size_t n) {
  while (n > 0 || (m_haveHeader && m_payload.size() == m_length)) {
    if (!m_haveHeader) {
      const std::size_t take = std::min(n, kHeaderBytes - m_head.size());
      m_head.append(p, take);
      p += take;
      n -= take;
      if (m_head.size() < kHeaderBytes) return;
      if (!takeHeader()) {
        if (m_problem.empty()) m_notAFrame = m_head + std::string(p, std::min(n, kQuotedBytes - kHeaderBytes));
        return;
      }
    }
    const std::size_t take = std::size_t(std::min<std::uint64_t>(n, m_length - m_payload.size()));
    m_payload.append(p, take);
    p += take;
    n -= take;
    if (m_payload.size() == m_length) {
      m_ready.emplace_back(m_type, std::move(m_payload));
      m_payload = std::string();
      m_haveHeader = false;
      m_head.clear();
    }
  }
}

bool FrameReader::next(char& type, std::string& payload) {
  if (m_ready.empty()) return false;
  type = m_ready.front().first;
  payload = std::move(m_ready.front().second);
  m_ready.pop_front();
  return true;
}

std::string FrameReader::problem() const {
  if (m_notAFrame.empty()) return m_problem;
  return "sent something that is not a frame: " + quoted(m_notAFrame.substr(0, m_notAFrame.find('\n')));
}

std::string FrameReader::takeBanner() {
  std::string b = std::move(m_banner);
  m_banner.clear();
  if (!m_greeted) {
    b += m_pre.substr(0, m_searched);
    m_pre.erase(0, m_searched);
    m_searched = 0;
  }
  return b;
}

}  // namespace launchlab::frames
