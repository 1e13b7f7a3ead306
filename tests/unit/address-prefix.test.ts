// Which network an address stands for when plays are counted (shared/address-prefix.ts).
import { describe, expect, it } from "vitest";
import { addressPrefix, ipv6Groups } from "../../shared/address-prefix";

describe("addressPrefix", () => {
  it("an IPv4 address is itself (/32), leading zeros and spaces aside", () => {
    expect(addressPrefix("192.0.2.1")).toBe("192.0.2.1");
    expect(addressPrefix(" 192.000.002.001 ")).toBe("192.0.2.1");
    expect(addressPrefix("192.0.2.2")).not.toBe(addressPrefix("192.0.2.1"));
  });

  it("every IPv6 address of one /64 is the same network, however it is written", () => {
    const prefix = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff",
      "[2001:db8:1:2::abcd]",
      "2001:db8:1:2:0:0:0:9%eth0",
      "2001:db8:1:2::192.0.2.1",
    ]) {
      expect(addressPrefix(address)).toBe(prefix);
    }
    expect(addressPrefix("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressPrefix("::1")).toBe("0:0:0:0::/64");
  });

  it("an IPv4-mapped IPv6 address is its IPv4 address", () => {
    expect(addressPrefix("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressPrefix("::ffff:c000:201")).toBe("192.0.2.1");
  });

  it("what is not an address stands for itself", () => {
    expect(addressPrefix("unknown")).toBe("unknown");
    expect(addressPrefix("1:2:3")).toBe("1:2:3");
    expect(addressPrefix("256.1.1.1")).toBe("256.1.1.1");
    expect(ipv6Groups("1::2::3")).toBeNull();
    expect(ipv6Groups("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(ipv6Groups("1:2:3:4:5:6:7::8")).toBeNull();
    expect(ipv6Groups("12345::")).toBeNull();
  });
});
