"""Pictures for the media tests, made and read with Pillow (an image library
independent of the server's libvips).

    images.py make FOLDER     writes the test pictures into FOLDER
    images.py inspect FILE    prints one JSON line: format, size, EXIF tags
"""
import io
import json
import struct
import sys
import zlib

from PIL import Image


def gps_photo():
    """A 1200×800 JPEG whose EXIF has a GPS position, a camera, and
    orientation 6 (shown turned 90° clockwise)."""
    image = Image.new("RGB", (1200, 800))
    for x in range(0, 1200, 40):
        image.paste((x % 255, 80, 200), (x, 0, x + 20, 800))
    exif = Image.Exif()
    exif[0x010F] = "Huddle Test Camera"  # Make
    exif[0x0112] = 6  # Orientation
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (48.0, 51.0, 29.0)
    gps[3] = "E"
    gps[4] = (2.0, 17.0, 40.0)
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes(), quality=90)
    return out.getvalue()


def png_bomb():
    """A PNG whose header claims 100,000 × 100,000 pixels (10 gigapixels)."""
    header = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 0, 0, 0, 0)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = zlib.compress(b"\x00" * 100_001 * 100, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def main():
    if sys.argv[1] == "make":
        folder = sys.argv[2]
        photo = gps_photo()
        files = {
            "gps.jpg": photo,
            "truncated.jpg": photo[: len(photo) // 2],
            "polyglot.jpg": photo + b"<script>alert('payload')</script>PAYLOAD-AFTER-THE-IMAGE",
            "bomb.png": png_bomb(),
            "svg.png": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        }
        small = io.BytesIO()
        Image.new("RGBA", (300, 200), (0, 128, 255, 128)).save(small, "PNG")
        files["small.png"] = small.getvalue()
        webp = io.BytesIO()
        Image.new("RGB", (2000, 3000), (200, 30, 30)).save(webp, "WEBP")
        files["tall.webp"] = webp.getvalue()
        # AVIF (Pillow 11.3 and later write it) and HEIC, an iPhone's
        # photos (pillow-heif, with its own libheif and x265), both in the
        # HEIF container.
        avif = io.BytesIO()
        Image.new("RGB", (900, 600), (30, 90, 200)).save(avif, "AVIF")
        files["photo.avif"] = avif.getvalue()
        from pillow_heif import register_heif_opener
        register_heif_opener()
        heic = io.BytesIO()
        Image.new("RGB", (600, 900), (200, 140, 30)).save(heic, format="HEIF", quality=80)
        files["photo.heic"] = heic.getvalue()
        for name, data in files.items():
            with open(f"{folder}/{name}", "wb") as out:
                out.write(data)
    else:
        image = Image.open(sys.argv[2])
        exif = image.getexif()
        print(json.dumps({
            "format": image.format, "width": image.width, "height": image.height,
            "exifTags": len(exif), "gps": len(exif.get_ifd(0x8825)), "info": sorted(k for k in image.info if k != "dpi"),
        }))


if __name__ == "__main__":
    main()
