/** One entry of the built-in catalogue (spec §3). */
export interface Video {
  /** video_001 … video_050 */
  id: string;
  title: string;
  description: string;
  /** Main categories (电影, 电视剧, 综艺, 纪录片), sub-types (网络剧, 短剧, 微电影, 动画) and genres. */
  category: string[];
  tags: string[];
  year: number;
  /** Out of 10, 8.1 – 9.3. */
  rating: number;
  /** "02:15:30" for films, "45:00" for episodes. */
  duration: string;
  /** "N.webp", served from the site root. */
  coverImage: string;
  /** "N.mp4" or "/N.mp4" in the raw data; always "/N.mp4" after normalisation. */
  videoFile: string;
}
