#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "helpers/test_files.h"
#include "launchlab/engine/errors.h"
#include "launchlab/engine/rng.h"
#include "launchlab/files/npy.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {
using test::data;
fs::path tmpDir() {
  auto d = fs::temp_directory_path() / ("launchlab_npy_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}
std::string loadError(const std::string& path) {
  try {
    npy::load(path);
  } catch (const BadInput& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Npy, ReadsFilesWrittenByNumPy) {
  auto a = npy::load(data("np_f32_1d.npy"), "x");
  EXPECT_EQ(a.name(), "x");
  ASSERT_EQ(a.dtype(), DType::F32);
  ASSERT_EQ(a.shape(), (std::vector<std::size_t>{5}));
  auto v = a.view<float>();
  EXPECT_EQ(v[0], 0.5f);
  EXPECT_EQ(v[1], -1.25f);
  EXPECT_EQ(v[3], 1e-7f);

  auto b = npy::load(data("np_f64_2d.npy"));
  ASSERT_EQ(b.dtype(), DType::F64);
  ASSERT_EQ(b.shape(), (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(b.view<double>()[11], 11.0 / 8.0);

  auto c = npy::load(data("np_i32_1d.npy"));
  ASSERT_EQ(c.dtype(), DType::I32);
  EXPECT_EQ(c.view<std::int32_t>()[0], INT32_MIN);
  EXPECT_EQ(c.view<std::int32_t>()[4], INT32_MAX);

  auto u = npy::load(data("np_u8_1d.npy"));
  ASSERT_EQ(u.dtype(), DType::U8);
  EXPECT_EQ(u.view<std::uint8_t>()[2], 255);

  auto v2 = npy::load(data("np_f32_v2.npy"));
  ASSERT_EQ(v2.size(), 2u);
  EXPECT_EQ(v2.view<float>()[1], 2.5f);
}

TEST(Npy, RejectsWhatItCannotReadWithAReason) {
  EXPECT_NE(loadError(data("np_f32_big_endian.npy")).find("big-endian"), std::string::npos);
  EXPECT_NE(loadError(data("np_f16.npy")).find("unsupported dtype '<f2'"), std::string::npos);
  EXPECT_NE(loadError(data("np_f64_fortran.npy")).find("Fortran"), std::string::npos);
  EXPECT_NE(loadError(data("np_truncated.npy")).find("truncated"), std::string::npos);
  EXPECT_NE(loadError(data("not_npy.npy")).find("bad magic"), std::string::npos);
  EXPECT_NE(loadError(data("does_not_exist.npy")).find("no such file"), std::string::npos);
}

TEST(Npy, RoundTripsEveryDtypeAndShape) {
  auto dir = tmpDir();
  for (DType t : {DType::F32, DType::F64, DType::I32, DType::U32, DType::U8, DType::I64, DType::I16}) {
    for (std::vector<std::size_t> shape : {std::vector<std::size_t>{1}, {1000003}, {7, 13}, {2, 3, 5}}) {
      HostArray a("a", t, shape);
      fillUniform(a, 0, 200, 99, 3);
      const auto path = (dir / "rt.npy").string();
      npy::save(path, a);
      auto h = npy::loadHeader(path);
      EXPECT_EQ(h.dataOffset % 64, 0u);
      auto b = npy::load(path, "b");
      ASSERT_EQ(b.dtype(), t);
      ASSERT_EQ(b.shape(), shape);
      ASSERT_EQ(b.bytes(), a.bytes());
      EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bytes()), 0);
    }
  }
  fs::remove_all(dir);
}

TEST(Npy, HeaderDictParsing) {
  auto h = npy::parseHeaderDict("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }");
  EXPECT_EQ(h.dtype, DType::F64);
  EXPECT_EQ(h.shape, (std::vector<std::size_t>{3, 4}));
  auto s = npy::parseHeaderDict("{'descr': '<i4', 'fortran_order': False, 'shape': (), }");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.elements(), 1u);
  EXPECT_THROW(npy::parseHeaderDict("{'fortran_order': False, 'shape': (3,), }"), BadInput);
}

TEST(Npy, SaveIntoMissingFolderFailsCleanly) {
  HostArray a("a", DType::F32, {4});
  EXPECT_THROW(npy::save("/nonexistent-folder-xyz/a.npy", a), std::runtime_error);
}

// Hostile headers: each is one BadInput, never a crash (a ~30 KB header used to overflow the stack in std::regex).
TEST(Npy, HostileHeaderDictsAreOneCleanError) {
  const std::string longDescr = "{'descr': '" + std::string(30000, 'f') + "', 'fortran_order': False, 'shape': (3,), }";
  const std::string spaceShape =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::string(30000, ' ') + "3,), }";
  EXPECT_THROW(npy::parseHeaderDict(longDescr), BadInput);
  EXPECT_EQ(npy::parseHeaderDict(spaceShape).shape, std::vector<std::size_t>{3});
  for (const std::string& bad : std::vector<std::string>{
           "", "{", "}", "{'descr': '<f4'}", "{'descr': '<f4', 'fortran_order': False}",
           "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (3,)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'descr': '<f8'}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'colour': 'red'}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (3, -1)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} trailing",
           "{'descr': '<f4, 'fortran_order': False, 'shape': (3,)}", std::string(5000, '{')}) {
    EXPECT_THROW(npy::parseHeaderDict(bad), BadInput) << bad.substr(0, 80);
  }
  const npy::Header ok =
      npy::parseHeaderDict("{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (2, 3), }   \n");
  EXPECT_EQ(ok.dtype, DType::F64);
  EXPECT_EQ(ok.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(npy::parseHeaderDict("{'descr': '<i4', 'fortran_order': False, 'shape': ()}").shape.size(), 0u);
}

TEST(Npy, AHeaderLongerThanNumPysCapIsRefused) {
  const auto path =
      std::filesystem::temp_directory_path() / ("launchlab_npy_long_" + std::to_string(::getpid()) + ".npy");
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }" + std::string(30000, ' ') + "\n";
  std::string bytes("\x93NUMPY\x02\x00", 8);
  const std::uint32_t len = std::uint32_t(dict.size());
  for (int k = 0; k < 4; ++k) bytes += char((len >> (8 * k)) & 0xFF);
  bytes += dict + std::string(4, '\0');
  { std::ofstream(path, std::ios::binary) << bytes; }
  try {
    npy::loadHeader(path.string());
    ADD_FAILURE() << "a 30 KB header was accepted";
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find("implausible .npy header length"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}
