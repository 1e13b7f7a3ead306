/** One signed-in device as the profile lists it (GET /api/auth/sessions). */
export interface DeviceSession {
  id: string;
  /** Browser and system, e.g. "Chrome 120 · Windows"; 未知设备 when unknown. */
  device: string;
  /** Country name in Chinese, or null. */
  country: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The device this page is open on. */
  current: boolean;
}
