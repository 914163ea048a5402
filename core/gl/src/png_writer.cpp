#include "launchlab/gl/png_writer.h"

#include <png.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "launchlab/files/atomic_file.h"

namespace launchlab::gl {
namespace {

void appendBytes(png_structp png, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), n);
}
void noFlush(png_structp) {}

}  // namespace

Expected<std::string> encodePng(std::span<const std::uint8_t> rgba, int width, int height) {
  if (width < 1 || height < 1 || rgba.size() < std::size_t(width) * std::size_t(height) * 4)
    return Expected<std::string>::fail("PNG: no pixels or a buffer smaller than the image");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return Expected<std::string>::fail("PNG: libpng could not start");
  }
  std::string bytes;
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y)
    rows[std::size_t(y)] = const_cast<png_bytep>(rgba.data() + std::size_t(y) * std::size_t(width) * 4);
  if (setjmp(png_jmpbuf(png))) {  // libpng's error path (nothing with a destructor is created after this point)
    png_destroy_write_struct(&png, &info);
    return Expected<std::string>::fail("PNG: libpng failed to encode the image");
  }
  png_set_write_fn(png, &bytes, appendBytes, noFlush);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 6);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return bytes;
}

Status writePng(const std::string& path, std::span<const std::uint8_t> rgba, int width, int height) {
  Expected<std::string> bytes = encodePng(rgba, width, height);
  if (!bytes.ok()) return Status::fail(bytes.error());
  try {
    files::writeAtomic(path, *bytes);
  } catch (const std::exception& e) {
    return Status::fail(e.what());
  }
  return {};
}

Expected<PngImage> readPng(const std::string& path) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path.c_str()))
    return Expected<PngImage>::fail("PNG: cannot read " + path + ": " + img.message);
  img.format = PNG_FORMAT_RGBA;
  PngImage out;
  out.width = int(img.width);
  out.height = int(img.height);
  out.rgba.resize(PNG_IMAGE_SIZE(img));
  if (!png_image_finish_read(&img, nullptr, out.rgba.data(), 0, nullptr)) {
    png_image_free(&img);
    return Expected<PngImage>::fail("PNG: cannot decode " + path + ": " + img.message);
  }
  return out;
}

}  // namespace launchlab::gl
